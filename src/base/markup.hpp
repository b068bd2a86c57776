#pragma once

// Text placed in HTML or SVG (the status page, the timelines): &, <, >, " and ' as entities.

#include <string>
#include <string_view>

namespace zk::base {

inline std::string escape_markup(std::string_view s) {
  std::string o;
  o.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&#39;"; break;
      default: o += c;
    }
  }
  return o;
}

}  // namespace zk::base
