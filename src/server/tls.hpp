#pragma once

// TLS for the daemon's TCP listener and for its clients: gRPC's SSL credentials (OpenSSL in
// Debian's gRPC) from PEM files. The files are read and checked here first (certificates parse,
// a private key is not encrypted and matches its certificate), so a wrong file is an error naming
// the setting and the file at start — not a listener that fails later with gRPC's log lines.

#include <memory>
#include <string>

#include <grpcpp/grpcpp.h>

#include "base/status.hpp"

namespace zk::server {

/// The daemon's side (daemon.tls_cert / tls_key / tls_client_ca). With a client CA, every client
/// must present a certificate that CA signed (mutual TLS); without it, clients are not asked for one.
struct ServerTlsFiles {
  std::string cert;       // PEM certificate chain (the server's first)
  std::string key;        // PEM private key of that certificate, unencrypted
  std::string client_ca;  // PEM CA bundle; empty: no client certificates
};
Result<std::shared_ptr<grpc::ServerCredentials>> server_tls_credentials(const ServerTlsFiles& files);

/// A client's side (--tls, --tls-ca, --tls-cert, --tls-key): the CA that signed the daemon's
/// certificate (empty: the system's roots), and a client certificate and key for mutual TLS (both
/// or neither). Any of the files implies TLS.
struct ClientTlsFiles {
  bool tls = false;
  std::string ca;
  std::string cert;
  std::string key;
  bool enabled() const { return tls || !ca.empty() || !cert.empty() || !key.empty(); }
};
Result<std::shared_ptr<grpc::ChannelCredentials>> client_tls_credentials(const ClientTlsFiles& files);

}  // namespace zk::server
