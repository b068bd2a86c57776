#include "server/http_listener.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <microhttpd.h>

#include <cstring>
#include <exception>

#include "base/decimal.hpp"
#include "base/file.hpp"

namespace zk::server {

struct HttpListener::Impl {
  MHD_Daemon* daemon = nullptr;
  Handler handler;
  std::string cert, key;  // kept alive: MHD reads them at start
  ~Impl() {
    if (daemon != nullptr) MHD_stop_daemon(daemon);
  }
};

Result<HttpAddress> parse_http_listen(const std::string& listen) {
  auto bad = [&](const std::string& why) {
    return Status::invalid_argument("daemon.http_listen \"" + listen + "\": " + why +
                                    " (e.g. 127.0.0.1:9821, [::1]:9821, localhost:9821)");
  };
  HttpAddress a;
  std::string host, port;
  if (!listen.empty() && listen.front() == '[') {
    const auto close = listen.find(']');
    if (close == std::string::npos || close + 1 >= listen.size() || listen[close + 1] != ':')
      return bad("an IPv6 address is [address]:port");
    host = listen.substr(1, close - 1);
    port = listen.substr(close + 2);
    a.ipv6 = true;
  } else {
    const auto colon = listen.rfind(':');
    if (colon == std::string::npos || colon == 0) return bad("give host:port");
    host = listen.substr(0, colon);
    port = listen.substr(colon + 1);
    if (host.find(':') != std::string::npos) return bad("an IPv6 address goes in brackets");
  }
  auto p = base::parse_decimal_u64(port, 65535);
  if (!p.ok()) return bad("the port is a number from 0 to 65535");
  a.port = static_cast<unsigned>(*p);
  if (host == "localhost") host = "127.0.0.1";
  if (a.ipv6) {
    in6_addr v6{};
    if (inet_pton(AF_INET6, host.c_str(), &v6) != 1) return bad("not an IPv6 address");
    a.loopback = IN6_IS_ADDR_LOOPBACK(&v6);
  } else {
    in_addr v4{};
    if (inet_pton(AF_INET, host.c_str(), &v4) != 1) return bad("the host is an IP address or localhost");
    a.loopback = (ntohl(v4.s_addr) >> 24) == 127;
  }
  a.host = host;
  return a;
}

namespace {

MHD_Result answer(MHD_Connection* c, const HttpPage& page, bool head) {
  MHD_Response* r =
      head ? MHD_create_response_from_buffer(0, nullptr, MHD_RESPMEM_PERSISTENT)
           : MHD_create_response_from_buffer(page.body.size(), const_cast<char*>(page.body.data()), MHD_RESPMEM_MUST_COPY);
  if (r == nullptr) return MHD_NO;
  MHD_add_response_header(r, "Content-Type", page.content_type.c_str());
  // Read-only pages of our own: nothing from elsewhere, no framing, no sniffing, never cached.
  MHD_add_response_header(r, "Content-Security-Policy", "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'");
  MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
  MHD_add_response_header(r, "X-Frame-Options", "DENY");
  MHD_add_response_header(r, "Cache-Control", "no-store");
  if (page.status == MHD_HTTP_METHOD_NOT_ALLOWED) MHD_add_response_header(r, "Allow", "GET, HEAD");
  const MHD_Result ret = MHD_queue_response(c, static_cast<unsigned>(page.status), r);
  MHD_destroy_response(r);
  return ret;
}

HttpPage error_page(int status, const std::string& text) { return HttpPage{status, "text/plain; charset=utf-8", text + "\n"}; }

MHD_Result on_request(void* cls, MHD_Connection* c, const char* url, const char* method, const char* /*version*/,
                      const char* /*upload_data*/, size_t* upload_data_size, void** con_cls) {
  auto* impl = static_cast<HttpListener::Impl*>(cls);
  const bool head = std::strcmp(method, MHD_HTTP_METHOD_HEAD) == 0;
  if (!head && std::strcmp(method, MHD_HTTP_METHOD_GET) != 0) {
    // Answered on the first call, before any body is read; the connection is then closed.
    return answer(c, error_page(MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD"), false);
  }
  const char* length = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
  const char* chunked = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING);
  if ((length != nullptr && std::strcmp(length, "0") != 0) || chunked != nullptr || *upload_data_size != 0) {
    return answer(c, error_page(MHD_HTTP_CONTENT_TOO_LARGE, "a GET carries no body"), false);
  }
  if (*con_cls == nullptr) {
    // First call for this request (headers only): mark it and answer on the next.
    static int seen = 0;
    *con_cls = &seen;
    return MHD_YES;
  }
  HttpPage page;
  try {
    page = impl->handler(url == nullptr ? std::string("/") : std::string(url));
  } catch (const std::exception& e) {
    page = error_page(MHD_HTTP_INTERNAL_SERVER_ERROR, std::string("internal error: ") + e.what());
  } catch (...) {
    page = error_page(MHD_HTTP_INTERNAL_SERVER_ERROR, "internal error");
  }
  return answer(c, page, head);
}

void quiet_log(void*, const char*, va_list) {}

}  // namespace

Result<std::unique_ptr<HttpListener>> HttpListener::start(const HttpListenerConfig& config, Handler handler) {
  auto addr = parse_http_listen(config.listen);
  if (!addr.ok()) return addr.status();
  const bool tls = !config.tls_cert.empty() || !config.tls_key.empty();
  if (tls && (config.tls_cert.empty() || config.tls_key.empty()))
    return Status::invalid_argument("daemon.http_tls_cert and daemon.http_tls_key go together");
  if (!addr->loopback && !tls && !config.allow_public) {
    return Status::invalid_argument("daemon.http_listen \"" + config.listen +
                                    "\" is not a loopback address: give daemon.http_tls_cert and http_tls_key, or set "
                                    "daemon.http_allow_public = true to publish the pages in clear");
  }
  if (config.max_connections == 0) return Status::invalid_argument("daemon.http_max_connections must be at least 1");
  auto impl = std::make_unique<Impl>();
  impl->handler = std::move(handler);
  unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ERROR_LOG;
  if (tls) {
    if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES)
      return Status::unavailable("this libmicrohttpd was built without TLS: daemon.http_tls_* cannot be served");
    auto cert = read_text_file(config.tls_cert, 1 << 20);
    if (!cert.ok()) return Status::invalid_argument("daemon.http_tls_cert: " + cert.status().message());
    auto key = read_text_file(config.tls_key, 1 << 20);
    if (!key.ok()) return Status::invalid_argument("daemon.http_tls_key: " + key.status().message());
    impl->cert = std::move(*cert);
    impl->key = std::move(*key);
    flags |= MHD_USE_TLS;
  }
  sockaddr_storage ss{};
  if (addr->ipv6) {
    auto* s6 = reinterpret_cast<sockaddr_in6*>(&ss);
    s6->sin6_family = AF_INET6;
    s6->sin6_port = htons(static_cast<std::uint16_t>(addr->port));
    inet_pton(AF_INET6, addr->host.c_str(), &s6->sin6_addr);
    flags |= MHD_USE_IPv6;
  } else {
    auto* s4 = reinterpret_cast<sockaddr_in*>(&ss);
    s4->sin_family = AF_INET;
    s4->sin_port = htons(static_cast<std::uint16_t>(addr->port));
    inet_pton(AF_INET, addr->host.c_str(), &s4->sin_addr);
  }
  const auto timeout = static_cast<unsigned>(config.timeout.count());
  // HTTPS adds the certificate and key (an option array: empty for plain HTTP).
  MHD_OptionItem tls_options[] = {{MHD_OPTION_END, 0, nullptr}, {MHD_OPTION_END, 0, nullptr},
                                  {MHD_OPTION_END, 0, nullptr}};
  if (tls) {
    tls_options[0] = {MHD_OPTION_HTTPS_MEM_CERT, 0, const_cast<char*>(impl->cert.c_str())};
    tls_options[1] = {MHD_OPTION_HTTPS_MEM_KEY, 0, const_cast<char*>(impl->key.c_str())};
  }
  impl->daemon = MHD_start_daemon(
      flags, static_cast<std::uint16_t>(addr->port), nullptr, nullptr, &on_request, impl.get(), MHD_OPTION_SOCK_ADDR,
      reinterpret_cast<sockaddr*>(&ss), MHD_OPTION_CONNECTION_LIMIT, config.max_connections,
      MHD_OPTION_PER_IP_CONNECTION_LIMIT, config.max_connections, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
      config.max_request_bytes, MHD_OPTION_CONNECTION_TIMEOUT, timeout, MHD_OPTION_EXTERNAL_LOGGER, &quiet_log,
      nullptr, MHD_OPTION_ARRAY, tls_options, MHD_OPTION_END);
  if (impl->daemon == nullptr) {
    return Status::unavailable("daemon.http_listen \"" + config.listen + "\": cannot listen there" +
                               (tls ? " (in use, or the TLS certificate and key were not accepted)" : " (in use?)"));
  }
  // The port actually bound (the configuration may say 0).
  const MHD_DaemonInfo* info = MHD_get_daemon_info(impl->daemon, MHD_DAEMON_INFO_LISTEN_FD);
  unsigned port = addr->port;
  if (info != nullptr) {
    sockaddr_storage bound{};
    socklen_t len = sizeof bound;
    if (getsockname(info->listen_fd, reinterpret_cast<sockaddr*>(&bound), &len) == 0) {
      port = addr->ipv6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port)
                        : ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
    }
  }
  std::unique_ptr<HttpListener> l(new HttpListener());
  l->impl_ = std::move(impl);
  l->tls_ = tls;
  l->address_ = (addr->ipv6 ? "[" + addr->host + "]" : addr->host) + ":" + std::to_string(port);
  return l;
}

HttpListener::~HttpListener() = default;

}  // namespace zk::server
