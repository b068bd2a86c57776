#include "base/env.hpp"

#include <cstdlib>
#include <cstring>

namespace zk::base {

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && v[0] != '\0' && std::strcmp(v, "0") != 0;
}

}  // namespace zk::base
