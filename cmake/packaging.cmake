# Installation and the Debian package (docs/daemon.md, "Running it as a service").
#   cmake --install build/<preset> [--prefix /usr]   the binary, the example configuration, the unit
#   make package                                      a .deb (CPack) with its dependencies declared
# The usual places for a system service: /usr/bin, /etc/zkpipe, /usr/lib/systemd/system (the unit
# runs /usr/bin/zkpipe). Another prefix: -DCMAKE_INSTALL_PREFIX=... at configure time; stage with
# DESTDIR (the configuration always goes to the prefix's sysconfdir: /etc for /usr).
if(CMAKE_INSTALL_PREFIX_INITIALIZED_TO_DEFAULT)
  set(CMAKE_INSTALL_PREFIX /usr CACHE PATH "Install prefix" FORCE)
endif()
include(GNUInstallDirs)

install(TARGETS zkpipe RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The configuration the unit reads (a conffile in the .deb: an operator's edits survive upgrades).
install(FILES ${PROJECT_SOURCE_DIR}/zkpipe.example.toml DESTINATION ${CMAKE_INSTALL_FULL_SYSCONFDIR}/zkpipe
        RENAME zkpipe.toml)
# systemd's unit directory: lib/systemd/system under the prefix (/usr/lib/systemd/system).
install(FILES ${PROJECT_SOURCE_DIR}/contrib/systemd/zkpipe.service DESTINATION lib/systemd/system)
install(FILES ${PROJECT_SOURCE_DIR}/contrib/grafana/zkpipe.json DESTINATION ${CMAKE_INSTALL_DATADIR}/zkpipe/grafana)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/docs/daemon.md ${PROJECT_SOURCE_DIR}/docs/curio.md
              ${PROJECT_SOURCE_DIR}/zkpipe.example.toml
        DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME zkpipe)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "zkpipe maintainers <zkpipe@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "pipelined Groth16 proving daemon for Filecoin (PoRep C2, SnapDeals, PoSt) and circom")
set(CPACK_PACKAGE_DESCRIPTION
    "zkpipe proves Filecoin's PoRep C2, SnapDeals and PoSt SNARKs (and snarkjs/circom Groth16 circuits) on CPUs and\nCUDA GPUs with bounded memory; it speaks cuzk's gRPC protocol for Curio. The package installs the binary, the\nsystemd unit (zkpipe.service), /etc/zkpipe/zkpipe.toml and a Grafana dashboard.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/zkpipe/zkpipe")
# The shared libraries' packages, read off the binary by dpkg-shlibdeps (grpc, protobuf, tbb,
# libpq, sqlite, libmicrohttpd, OpenSSL, ...); adduser for the postinst.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "adduser")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/contrib/debian/postinst
                                       ${PROJECT_SOURCE_DIR}/contrib/debian/conffiles)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# Only the files above: nothing else in the tree has install rules (tests and benchmarks stay out).
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
include(CPack)
