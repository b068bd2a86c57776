#pragma once

namespace zk::base {

/// True when the environment variable `name` is set to something other than "" or "0" (the
/// ZKPIPE_NO_* switches).
bool env_flag(const char* name);

}  // namespace zk::base
