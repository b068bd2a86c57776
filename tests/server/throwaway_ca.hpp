#pragma once

// Certificates made in the test with OpenSSL's C API, never committed: a certificate authority,
// a server certificate it signs (for 127.0.0.1 and localhost), and client certificates. EC P-256
// keys, SHA-256 signatures, valid from an hour ago for a day.

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <cstring>  // EVP_EC_gen expands to strstr
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

namespace zk::test_pki {

struct Issued {
  std::string cert_pem, key_pem;
  std::shared_ptr<X509> cert;
  std::shared_ptr<EVP_PKEY> key;
};

namespace detail {

inline void check(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("throwaway CA: ") + what + " failed");
}

inline std::string pem_of(const std::function<int(BIO*)>& write) {
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), BIO_free);
  check(bio != nullptr && write(bio.get()) == 1, "PEM_write");
  char* data = nullptr;
  const long n = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(n));
}

inline void add_ext(X509* cert, X509* issuer, int nid, const char* value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
  check(ext != nullptr, "X509V3_EXT_conf_nid");
  check(X509_add_ext(cert, ext, -1) == 1, "X509_add_ext");
  X509_EXTENSION_free(ext);
}

}  // namespace detail

/// A certificate for `cn`, signed by `issuer` (nullptr: self-signed, a CA). `kind`: "ca", "server"
/// (subjectAltName 127.0.0.1 and localhost) or "client".
inline Issued issue(const std::string& cn, const std::string& kind, const Issued* issuer, long serial) {
  using detail::check;
  Issued out;
  out.key.reset(EVP_EC_gen("P-256"), EVP_PKEY_free);
  check(out.key != nullptr, "EVP_EC_gen");
  out.cert.reset(X509_new(), X509_free);
  X509* x = out.cert.get();
  check(X509_set_version(x, 2) == 1, "X509_set_version");  // v3
  check(ASN1_INTEGER_set(X509_get_serialNumber(x), serial) == 1, "serial");
  check(X509_gmtime_adj(X509_getm_notBefore(x), -3600) != nullptr, "notBefore");
  check(X509_gmtime_adj(X509_getm_notAfter(x), 24 * 3600) != nullptr, "notAfter");
  check(X509_set_pubkey(x, out.key.get()) == 1, "X509_set_pubkey");
  X509_NAME* name = X509_get_subject_name(x);
  check(X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(cn.c_str()), -1,
                                   -1, 0) == 1,
        "subject");
  X509* issuer_cert = issuer != nullptr ? issuer->cert.get() : x;
  check(X509_set_issuer_name(x, X509_get_subject_name(issuer_cert)) == 1, "issuer");
  if (kind == "ca") {
    detail::add_ext(x, issuer_cert, NID_basic_constraints, "critical,CA:TRUE");
    detail::add_ext(x, issuer_cert, NID_key_usage, "critical,keyCertSign,cRLSign");
  } else {
    detail::add_ext(x, issuer_cert, NID_basic_constraints, "critical,CA:FALSE");
    detail::add_ext(x, issuer_cert, NID_key_usage, "critical,digitalSignature");
    if (kind == "server") {
      detail::add_ext(x, issuer_cert, NID_ext_key_usage, "serverAuth");
      detail::add_ext(x, issuer_cert, NID_subject_alt_name, "IP:127.0.0.1,DNS:localhost");
    } else {
      detail::add_ext(x, issuer_cert, NID_ext_key_usage, "clientAuth");
    }
  }
  EVP_PKEY* signer = issuer != nullptr ? issuer->key.get() : out.key.get();
  check(X509_sign(x, signer, EVP_sha256()) > 0, "X509_sign");
  out.cert_pem = detail::pem_of([&](BIO* b) { return PEM_write_bio_X509(b, x); });
  out.key_pem = detail::pem_of(
      [&](BIO* b) { return PEM_write_bio_PrivateKey(b, out.key.get(), nullptr, nullptr, 0, nullptr, nullptr); });
  return out;
}

}  // namespace zk::test_pki
