#!/usr/bin/env bash
# Installs every build and test dependency of zkpipe from Debian 12's packages. Idempotent: packages
# already present are skipped, so a second run does not touch apt at all. Works as root; uses sudo
# otherwise.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git python3
  libgtest-dev libgmock-dev libbenchmark-dev
  libtbb-dev libfmt-dev libspdlog-dev libcli11-dev nlohmann-json3-dev libssl-dev
  libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc libtomlplusplus-dev
  python3-grpcio python3-protobuf hyperfine
  clang libclang-rt-dev
  libsqlite3-dev libpq-dev postgresql
  libmicrohttpd-dev prometheus chromium systemd dpkg-dev fakeroot
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo_cmd=(sudo)
  else
    echo "install-deps: need root or sudo to install: ${missing[*]}" >&2
    exit 1
  fi
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
