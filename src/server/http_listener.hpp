#pragma once

// The operators' HTTP listener (docs/daemon.md, "HTTP for operators"): read-only pages beside the
// gRPC listener — /metrics for Prometheus, /healthz, /readyz and the status page — served by
// libmicrohttpd (Debian's libmicrohttpd-dev: no HTTP parsing of our own) with bounded connections,
// request memory and time. Only GET and HEAD without a body are answered; anything else is 4xx and
// changes nothing. What each path returns is the caller's (the daemon's) handler.

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "base/status.hpp"

namespace zk::server {

struct HttpListenerConfig {
  std::string listen;  // "127.0.0.1:9821", "[::1]:9821", "localhost:9821", "0.0.0.0:9821"; port 0: any
  // HTTPS with this certificate chain and key (PEM files); both or neither.
  std::string tls_cert, tls_key;
  // A non-loopback address without TLS is refused unless this is set (the pages are read-only and
  // hold no secrets, but an operator should mean to publish them).
  bool allow_public = false;
  unsigned max_connections = 32;
  std::size_t max_request_bytes = 16 * 1024;  // request line and headers; more is 431
  std::chrono::seconds timeout{10};            // an idle or slow connection is closed after this
};

struct HttpPage {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
};

class HttpListener {
 public:
  /// GET/HEAD `path` (without the query) -> the page. Called on the listener's thread; must not throw
  /// (what it throws is answered 500).
  using Handler = std::function<HttpPage(const std::string& path)>;

  /// Binds and starts serving; errors name the setting (daemon.http_listen, daemon.http_tls_*).
  static Result<std::unique_ptr<HttpListener>> start(const HttpListenerConfig& config, Handler handler);
  ~HttpListener();  // stops: no request is being handled once it returns
  HttpListener(const HttpListener&) = delete;
  HttpListener& operator=(const HttpListener&) = delete;

  /// "host:port" with the port actually bound ("[::1]:port" for IPv6).
  const std::string& address() const { return address_; }
  bool tls() const { return tls_; }

  struct Impl;

 private:
  HttpListener() = default;
  std::unique_ptr<Impl> impl_;
  std::string address_;
  bool tls_ = false;
};

/// Parses daemon.http_listen: host (an IP literal, bracketed for IPv6, or "localhost") and port.
struct HttpAddress {
  std::string host;  // numeric
  unsigned port = 0;
  bool ipv6 = false;
  bool loopback = false;
};
Result<HttpAddress> parse_http_listen(const std::string& listen);

}  // namespace zk::server
