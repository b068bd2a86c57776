#!/bin/sh
# Installation and packaging (issue 45): `systemd-analyze verify` accepts the unit; CPack builds the
# .deb from this build tree (the ci build's binary; `make package` builds its own); dpkg-deb lists
# the expected files, declares the shared libraries' packages, marks the configuration a conffile;
# the binary extracted from the package answers `zkpipe version` with the commit; `cmake --install`
# into a DESTDIR puts the same files in the usual places.
# Usage: package_test.sh build-dir repo-root
set -u
B=$(realpath "$1")
ROOT=$(realpath "$2")
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# 1. The unit. systemd-analyze also checks that ExecStart's binary exists: verify a copy that runs
# the built binary instead of /usr/bin/zkpipe (the only line changed).
if command -v systemd-analyze > /dev/null; then
  mkdir -p "$D/unit"
  sed "s|^ExecStart=/usr/bin/zkpipe |ExecStart=$B/apps/zkpipe/zkpipe |" "$ROOT/contrib/systemd/zkpipe.service" \
    > "$D/unit/zkpipe.service"
  grep -q "^ExecStart=$B/apps/zkpipe/zkpipe serve " "$D/unit/zkpipe.service" || fail "the unit's ExecStart line moved"
  systemd-analyze verify --man=no "$D/unit/zkpipe.service" > "$D/verify.out" 2>&1 || {
    cat "$D/verify.out"; fail "systemd-analyze verify"; }
  # Warnings are printed even when it exits 0: none about our unit is acceptable.
  if grep -q "zkpipe.service" "$D/verify.out"; then cat "$D/verify.out"; fail "systemd-analyze warns about the unit"; fi
else
  echo "systemd-analyze missing (Debian's systemd package): the unit check skipped"
fi

# 2. The .deb.
command -v cpack > /dev/null && command -v dpkg-deb > /dev/null || fail "cpack and dpkg-deb are needed"
( cd "$D" && cpack --config "$B/CPackConfig.cmake" -B "$D/pkg" > "$D/cpack.log" 2>&1 ) || { tail -30 "$D/cpack.log"; fail "cpack"; }
DEB=$(ls "$D"/pkg/zkpipe_*.deb 2> /dev/null | head -1)
[ -n "$DEB" ] || { tail -30 "$D/cpack.log"; fail "no .deb written"; }
dpkg-deb --contents "$DEB" > "$D/contents" || fail "dpkg-deb --contents"
for f in ./usr/bin/zkpipe ./etc/zkpipe/zkpipe.toml ./usr/lib/systemd/system/zkpipe.service \
         ./usr/share/zkpipe/grafana/zkpipe.json ./usr/share/doc/zkpipe/daemon.md; do
  grep -q " $f\$" "$D/contents" || { cat "$D/contents"; fail "the package lacks $f"; }
done
# Nothing else from the build tree (tests, benchmarks) travels.
if grep -E "_test$|bench_|\.a$" "$D/contents"; then fail "the package holds build-tree files"; fi
DEPENDS=$(dpkg-deb -f "$DEB" Depends)
for lib in libgrpc++ libprotobuf libtbb libpq5 libsqlite3 libmicrohttpd adduser; do
  echo "$DEPENDS" | grep -q "$lib" || fail "Depends lacks $lib: $DEPENDS"
done
dpkg-deb -e "$DEB" "$D/control" || fail "dpkg-deb -e"
grep -qx "/etc/zkpipe/zkpipe.toml" "$D/control/conffiles" || fail "the configuration is not a conffile"
[ -x "$D/control/postinst" ] || fail "no postinst"
dpkg-deb -x "$DEB" "$D/root" || fail "dpkg-deb -x"
"$D/root/usr/bin/zkpipe" version > "$D/version" || fail "the packaged binary's version"
grep -q "^zkpipe [0-9]" "$D/version" && grep -q "^commit " "$D/version" && grep -q "^build type " "$D/version" \
  && grep -q "^CUDA architectures " "$D/version" || { cat "$D/version"; fail "zkpipe version's lines"; }
cmp -s "$D/root/etc/zkpipe/zkpipe.toml" "$ROOT/zkpipe.example.toml" || fail "the packaged configuration is not the example"

# 3. cmake --install into a staging directory: the same files.
DESTDIR="$D/stage" cmake --install "$B" > "$D/install.log" 2>&1 || { cat "$D/install.log"; fail "cmake --install"; }
for f in usr/bin/zkpipe etc/zkpipe/zkpipe.toml usr/lib/systemd/system/zkpipe.service; do
  [ -e "$D/stage/$f" ] || fail "cmake --install did not put $f"
done
echo "package: ok ($(basename "$DEB"), $(wc -l < "$D/contents") entries)"
