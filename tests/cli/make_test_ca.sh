#!/bin/sh
# A throwaway PKI for the TLS tests, made at test time with the openssl command (nothing key-like is
# committed): in DIR, a CA (ca.pem), a server certificate it signs for 127.0.0.1 and localhost
# (server.pem, server.key), a client certificate it signs (client.pem, client.key), and a client
# certificate from another CA (stranger.pem, stranger.key). EC P-256, valid one day.
# Usage: make_test_ca.sh DIR
set -eu
D="$1"
mkdir -p "$D"
cd "$D"
key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2> /dev/null; }
ca() {  # ca NAME CN
  key "$1.key"
  openssl req -x509 -new -key "$1.key" -out "$1.pem" -days 1 -subj "/CN=$2" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"
}
leaf() {  # leaf NAME CN ISSUER EXTENSIONS
  key "$1.key"
  openssl req -new -key "$1.key" -out "$1.csr" -subj "/CN=$2"
  printf '%s\n' "$4" > "$1.ext"
  openssl x509 -req -in "$1.csr" -CA "$3.pem" -CAkey "$3.key" -set_serial "$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')" \
    -days 1 -out "$1.pem" -extfile "$1.ext" 2> /dev/null
  rm -f "$1.csr" "$1.ext"
}
ca ca "zkpipe test CA"
ca other-ca "another CA"
leaf server "zkpipe daemon" ca "subjectAltName=IP:127.0.0.1,DNS:localhost
extendedKeyUsage=serverAuth
basicConstraints=critical,CA:FALSE"
leaf client "curio" ca "extendedKeyUsage=clientAuth
basicConstraints=critical,CA:FALSE"
leaf stranger "stranger" other-ca "extendedKeyUsage=clientAuth
basicConstraints=critical,CA:FALSE"
