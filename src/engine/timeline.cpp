#include "engine/timeline.hpp"

#include <algorithm>
#include <map>

#include "base/markup.hpp"

namespace zk::engine {

namespace {

const std::map<std::string, const char*>& stage_colors() {
  static const std::map<std::string, const char*> colors = {{"synthesis", "#4e79a7"},
                                                            {"wait for channel", "#bab0ac"},
                                                            {"prove_start", "#e15759"},
                                                            {"prove_finish", "#59a14f"}};
  return colors;
}

}  // namespace

double draw_stage_lanes(std::ostringstream& o, const std::vector<TraceSpan>& spans, double t0_s, double t1_s,
                        const LaneBox& box) {
  std::map<std::string, int> lanes;
  for (const auto& s : spans) lanes.emplace(s.worker, 0);
  int i = 0;
  for (auto& [w, lane] : lanes) lane = i++;
  const double span_s = std::max(t1_s - t0_s, 1e-3);
  auto x = [&](double t_s) { return box.left + box.width * (std::clamp(t_s, t0_s, t1_s) - t0_s) / span_s; };
  for (const auto& [w, lane] : lanes) {
    o << "<text x=\"" << box.left - 100 << "\" y=\"" << box.top + lane * box.lane_h + 15 << "\">"
      << base::escape_markup(w) << "</text>\n";
  }
  const auto& colors = stage_colors();
  for (const auto& s : spans) {
    const double b = s.start_us / 1e6, e = (s.start_us + s.duration_us) / 1e6;
    if (e < t0_s || b > t1_s) continue;
    const auto c = colors.count(s.stage) ? colors.at(s.stage) : "#999";
    o << "<rect x=\"" << x(b) << "\" y=\"" << box.top + lanes.at(s.worker) * box.lane_h + 3 << "\" width=\""
      << std::max(0.5, x(e) - x(b)) << "\" height=\"" << box.lane_h - 6 << "\" fill=\"" << c << "\"><title>"
      << base::escape_markup(s.stage) << " job " << s.job << " partition " << s.partition << ": "
      << s.duration_us / 1000 << " ms</title></rect>\n";
  }
  return box.lane_h * static_cast<double>(std::max<std::size_t>(lanes.size(), 1));
}

void draw_stage_legend(std::ostringstream& o, double x, double y) {
  for (const auto& [name, c] : stage_colors()) {
    o << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"12\" height=\"12\" fill=\"" << c << "\"/><text x=\""
      << x + 16 << "\" y=\"" << y + 10 << "\">" << name << "</text>\n";
    x += 140;
  }
}

std::string live_timeline_svg(const std::vector<TraceSpan>& spans, double now_s, double window_s,
                              const std::string& title) {
  const double t0_s = now_s - window_s, t1_s = now_s;
  std::ostringstream body;
  LaneBox box;
  const double lanes_h = draw_stage_lanes(body, spans, t0_s, t1_s, box);
  const double axis_y = box.top + lanes_h + 4, height = axis_y + 50;
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << box.left + box.width + 20 << "\" height=\"" << height
    << "\" font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  o << "<text x=\"10\" y=\"20\" font-size=\"14\">" << base::escape_markup(title) << "</text>\n" << body.str();
  o << "<line x1=\"" << box.left << "\" y1=\"" << axis_y << "\" x2=\"" << box.left + box.width << "\" y2=\"" << axis_y
    << "\" stroke=\"black\"/>\n";
  o << "<text x=\"" << box.left << "\" y=\"" << axis_y + 14 << "\">-" << window_s << " s</text><text x=\""
    << box.left + box.width - 30 << "\" y=\"" << axis_y + 14 << "\">now</text>\n";
  draw_stage_legend(o, box.left, height - 25);
  o << "</svg>\n";
  return o.str();
}

}  // namespace zk::engine
