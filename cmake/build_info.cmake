# Run at every build (the zk_build_info target): writes OUT from IN with the source tree's git
# commit. configure_file rewrites OUT only when its text changes, so nothing rebuilds otherwise.
# Inputs: SOURCE_DIR, IN, OUT, ZK_VERSION, ZK_BUILD_TYPE, ZK_CUDA_ARCHS.
execute_process(
  COMMAND git -C "${SOURCE_DIR}" describe --always --dirty --abbrev=12
  OUTPUT_VARIABLE ZK_GIT_COMMIT
  OUTPUT_STRIP_TRAILING_WHITESPACE
  ERROR_QUIET
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR ZK_GIT_COMMIT STREQUAL "")
  set(ZK_GIT_COMMIT "unknown (not built from a git checkout)")
endif()
configure_file("${IN}" "${OUT}" @ONLY)
