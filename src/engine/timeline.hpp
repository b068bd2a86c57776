#pragma once

// SVG drawing of the engine's stage spans, one lane per worker: what `zkpipe bench --plot` draws
// above its RSS curve and what the daemon's status page shows live (its last seconds).

#include <sstream>
#include <string>
#include <vector>

#include "engine/engine.hpp"

namespace zk::engine {

struct LaneBox {
  double left = 110;  // where time starts; worker names are written left of it
  double top = 40;
  double width = 870;  // of the time axis
  double lane_h = 22;
};

/// One lane per worker that has a span (alphabetical), a box per span clipped to [t0_s, t1_s]
/// (seconds on the spans' clock), with a tooltip (stage, job, partition, ms). Returns the lanes'
/// height (at least one lane).
double draw_stage_lanes(std::ostringstream& o, const std::vector<TraceSpan>& spans, double t0_s, double t1_s,
                        const LaneBox& box);
/// The stage colours' legend, left to right from (x, y).
void draw_stage_legend(std::ostringstream& o, double x, double y);
/// A standalone SVG of the last `window_s` seconds up to `now_s`: the lanes, the time axis (from
/// -window_s to now) and the legend.
std::string live_timeline_svg(const std::vector<TraceSpan>& spans, double now_s, double window_s,
                              const std::string& title);

}  // namespace zk::engine
