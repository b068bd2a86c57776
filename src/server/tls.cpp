#include "server/tls.hpp"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "base/file.hpp"

namespace zk::server {
namespace {

// A PEM file of certificates and keys is a few kilobytes; a CA bundle (the system's has ~150
// certificates) ~200 KB. 4 MiB is far beyond any real one.
constexpr std::uint64_t kMaxPemBytes = std::uint64_t{4} << 20;

struct BioFree {
  void operator()(BIO* b) const { BIO_free(b); }
};
struct X509Free {
  void operator()(X509* x) const { X509_free(x); }
};
struct KeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
using Bio = std::unique_ptr<BIO, BioFree>;
using Cert = std::unique_ptr<X509, X509Free>;
using Key = std::unique_ptr<EVP_PKEY, KeyFree>;

Bio memory_bio(const std::string& pem) { return Bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()))); }

/// Never prompts on the terminal for a pass phrase (OpenSSL's default without a callback).
int no_pass_phrase(char*, int, int, void*) { return -1; }

/// The file's text, or an error naming the setting.
Result<std::string> read_pem(const std::string& setting, const std::string& path) {
  auto text = read_text_file(path, kMaxPemBytes);
  if (!text.ok()) return Status::invalid_argument(setting + ": " + text.status().message());
  return text;
}

/// The certificates in a PEM text (at least one), the first returned.
Result<Cert> first_certificate(const std::string& setting, const std::string& path, const std::string& pem) {
  Bio bio = memory_bio(pem);
  Cert first(PEM_read_bio_X509(bio.get(), nullptr, no_pass_phrase, nullptr));
  ERR_clear_error();
  if (!first) {
    return Status::invalid_argument(setting + " " + path + ": no PEM certificate in it (expected \"-----BEGIN CERTIFICATE-----\")");
  }
  // The rest of a chain or bundle must parse too: a damaged second certificate is an error here,
  // not a handshake failure later.
  while (true) {
    Cert next(PEM_read_bio_X509(bio.get(), nullptr, no_pass_phrase, nullptr));
    if (!next) break;
  }
  const unsigned long err = ERR_peek_last_error();
  ERR_clear_error();
  // Reading stops with "no start line" at the end of the text; anything else is damage.
  if (err != 0 && ERR_GET_REASON(err) != PEM_R_NO_START_LINE) {
    return Status::invalid_argument(setting + " " + path + ": a damaged certificate after the first one");
  }
  return first;
}

/// The private key of `cert` from a PEM text: present, unencrypted, matching.
Status check_key(const std::string& key_setting, const std::string& key_path, const std::string& key_pem,
                 const std::string& cert_setting, X509* cert) {
  Bio bio = memory_bio(key_pem);
  Key key(PEM_read_bio_PrivateKey(bio.get(), nullptr, no_pass_phrase, nullptr));
  ERR_clear_error();
  if (!key) {
    return Status::invalid_argument(key_setting + " " + key_path +
                                    ": no unencrypted PEM private key in it (an encrypted key is not supported)");
  }
  const bool match = X509_check_private_key(cert, key.get()) == 1;
  ERR_clear_error();
  if (!match) return Status::invalid_argument(key_setting + " " + key_path + " is not the key of the " + cert_setting + " certificate");
  return {};
}

}  // namespace

Result<std::shared_ptr<grpc::ServerCredentials>> server_tls_credentials(const ServerTlsFiles& files) {
  const std::string cert_setting = "daemon.tls_cert (--tls-cert)", key_setting = "daemon.tls_key (--tls-key)",
                    ca_setting = "daemon.tls_client_ca (--tls-client-ca)";
  if (files.cert.empty() != files.key.empty()) {
    return Status::invalid_argument("TLS needs both daemon.tls_cert (--tls-cert) and daemon.tls_key (--tls-key)");
  }
  if (files.cert.empty()) {
    return Status::invalid_argument("daemon.tls_client_ca (--tls-client-ca) needs daemon.tls_cert and daemon.tls_key");
  }
  auto cert_pem = read_pem(cert_setting, files.cert);
  if (!cert_pem.ok()) return cert_pem.status();
  auto cert = first_certificate(cert_setting, files.cert, *cert_pem);
  if (!cert.ok()) return cert.status();
  auto key_pem = read_pem(key_setting, files.key);
  if (!key_pem.ok()) return key_pem.status();
  if (Status s = check_key(key_setting, files.key, *key_pem, cert_setting, cert->get()); !s.ok()) return s;
  grpc::SslServerCredentialsOptions o(GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
  if (!files.client_ca.empty()) {
    auto ca_pem = read_pem(ca_setting, files.client_ca);
    if (!ca_pem.ok()) return ca_pem.status();
    if (auto ca = first_certificate(ca_setting, files.client_ca, *ca_pem); !ca.ok()) return ca.status();
    // Mutual TLS: a client without a certificate, or with one the CA did not sign, fails the handshake.
    o = grpc::SslServerCredentialsOptions(GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
    o.pem_root_certs = std::move(*ca_pem);
  }
  o.pem_key_cert_pairs.push_back({std::move(*key_pem), std::move(*cert_pem)});
  return grpc::SslServerCredentials(o);
}

Result<std::shared_ptr<grpc::ChannelCredentials>> client_tls_credentials(const ClientTlsFiles& files) {
  if (files.cert.empty() != files.key.empty()) {
    return Status::invalid_argument("a client certificate needs both --tls-cert and --tls-key");
  }
  grpc::SslCredentialsOptions o;
  if (!files.ca.empty()) {
    auto ca_pem = read_pem("--tls-ca", files.ca);
    if (!ca_pem.ok()) return ca_pem.status();
    if (auto ca = first_certificate("--tls-ca", files.ca, *ca_pem); !ca.ok()) return ca.status();
    o.pem_root_certs = std::move(*ca_pem);
  }
  if (!files.cert.empty()) {
    auto cert_pem = read_pem("--tls-cert", files.cert);
    if (!cert_pem.ok()) return cert_pem.status();
    auto cert = first_certificate("--tls-cert", files.cert, *cert_pem);
    if (!cert.ok()) return cert.status();
    auto key_pem = read_pem("--tls-key", files.key);
    if (!key_pem.ok()) return key_pem.status();
    if (Status s = check_key("--tls-key", files.key, *key_pem, "--tls-cert", cert->get()); !s.ok()) return s;
    o.pem_cert_chain = std::move(*cert_pem);
    o.pem_private_key = std::move(*key_pem);
  }
  return grpc::SslCredentials(o);
}

}  // namespace zk::server
