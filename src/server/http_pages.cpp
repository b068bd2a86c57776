#include "server/http_pages.hpp"

#include <unistd.h>

#include <cstdio>
#include <sstream>

#include "base/markup.hpp"
#include "engine/budget.hpp"
#include "engine/timeline.hpp"

namespace zk::server {

namespace {

std::string bytes(std::uint64_t n) { return base::escape_markup(engine::format_bytes(n)); }

std::string seconds(double s) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f s", s);
  return b;
}

}  // namespace

std::string status_html(const pb::GetStatusResponse& st, const std::string& grpc_address,
                        const std::string& timeline_svg) {
  std::ostringstream o;
  auto e = base::escape_markup;
  o << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
    << "<meta http-equiv=\"refresh\" content=\"2\"><title>zkpipe status</title>"
    << "<style>body{font-family:sans-serif;margin:1.5em;color:#222}table{border-collapse:collapse;margin:.4em 0 1.2em}"
    << "td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}th{background:#f2f2f2}"
    << ".busy{background:#fde9d9}.draining{color:#b00;font-weight:bold}</style></head><body>\n";
  o << "<h1>zkpipe</h1>\n<p id=\"summary\">" << e(st.version()) << " · gRPC " << e(grpc_address) << " · up "
    << seconds(st.uptime_s()) << " · RSS " << bytes(st.rss_bytes()) << " (peak " << bytes(st.rss_peak_bytes()) << ")"
    << (st.draining() ? " · <span class=\"draining\">draining: refusing new jobs</span>" : "") << "</p>\n";
  const auto& t = st.totals();
  o << "<p id=\"totals\">jobs: " << t.active() << " active, " << t.submitted() << " submitted, " << t.completed()
    << " completed, " << t.failed() << " failed, " << t.cancelled() << " cancelled</p>\n";

  o << "<h2>Queue per kind</h2>\n<table id=\"queues\"><tr><th>kind</th><th>jobs queued</th><th>jobs running</th>"
       "<th>partitions queued</th></tr>\n";
  if (st.queues().empty()) o << "<tr><td colspan=\"4\">no jobs</td></tr>\n";
  for (const auto& q : st.queues()) {
    o << "<tr><td>" << e(q.circuit()) << "</td><td>" << q.jobs_queued() << "</td><td>" << q.jobs_running()
      << "</td><td>" << q.partitions_queued() << "</td></tr>\n";
  }
  o << "</table>\n";

  o << "<h2>Workers</h2>\n<table id=\"workers\"><tr><th>worker</th><th>doing</th><th>for</th></tr>\n";
  for (const auto& w : st.workers()) {
    if (w.job_id() == 0) {
      o << "<tr><td>" << e(w.name()) << "</td><td>idle</td><td></td></tr>\n";
    } else {
      o << "<tr class=\"busy\"><td>" << e(w.name()) << "</td><td>" << e(w.circuit()) << " job " << w.job_id()
        << " partition " << w.partition() << "</td><td>" << seconds(w.busy_ms() / 1000) << "</td></tr>\n";
    }
  }
  o << "</table>\n";

  if (!st.gpus().empty()) {
    o << "<h2>GPUs</h2>\n<table id=\"gpus\"><tr><th>GPU</th><th>proving</th><th>turns</th><th>busy</th>"
         "<th>waiting</th><th>resident bases</th><th>kernel memory</th></tr>\n";
    for (const auto& g : st.gpus()) {
      o << "<tr" << (g.job_id().empty() ? "" : " class=\"busy\"") << "><td>" << g.ordinal() << " " << e(g.name())
        << "</td><td>";
      if (!g.job_id().empty()) o << e(g.kind()) << " job " << e(g.job_id()) << " partition " << g.partition();
      o << "</td><td>" << g.turns() << "</td><td>" << seconds(g.busy_s()) << "</td><td>" << g.waiting() << "</td><td>"
        << bytes(g.resident_bytes()) << " of " << bytes(g.resident_capacity_bytes()) << "</td><td>"
        << bytes(g.pool_bytes()) << "</td></tr>\n";
    }
    o << "</table>\n";
  }

  o << "<h2>Pipeline</h2>\n<table id=\"stages\"><tr>";
  for (const auto& s : st.stages()) o << "<th>" << e(s.stage()) << "</th>";
  o << "</tr><tr>";
  for (const auto& s : st.stages()) o << "<td>" << s.partitions() << "</td>";
  o << "</tr></table>\n";

  o << "<h2>Timeline</h2>\n<div id=\"timeline\">" << timeline_svg << "</div>\n";

  const auto& b = st.budget();
  o << "<h2>Memory</h2>\n<p id=\"budget\">budget " << bytes(b.used_bytes()) << " reserved of " << bytes(b.total_bytes())
    << " (high water " << bytes(b.high_water_bytes()) << ")</p>\n";
  o << "<table id=\"ledger\"><tr><th>buffer class</th><th>live</th><th>buffers</th><th>high water</th></tr>\n";
  for (const auto& l : st.ledger()) {
    o << "<tr><td>" << e(l.name()) << "</td><td>" << bytes(l.bytes()) << "</td><td>" << l.buffers() << "</td><td>"
      << bytes(l.high_water_bytes()) << "</td></tr>\n";
  }
  o << "</table>\n";

  o << "<h2>Keys loaded</h2>\n<table id=\"keys\"><tr><th>key</th><th>bytes</th><th>users</th></tr>\n";
  if (st.params().empty()) o << "<tr><td colspan=\"3\">none</td></tr>\n";
  for (const auto& p : st.params()) {
    o << "<tr><td>" << e(p.id()) << "</td><td>" << bytes(p.bytes()) << "</td><td>" << p.users() << "</td></tr>\n";
  }
  o << "</table>\n";

  const auto& js = st.store();
  o << "<h2>Job store</h2>\n<p id=\"store\">" << e(js.location()) << " · this daemon: " << e(js.owner()) << "</p>\n";
  if (!js.error().empty()) {
    o << "<p class=\"draining\">the store could not be read: " << e(js.error()) << "</p>\n";
  } else {
    o << "<p>" << js.queued() << " queued, " << js.running() << " running, " << js.done() << " done, " << js.failed()
      << " failed, " << js.cancelled() << " cancelled; inputs held " << bytes(js.input_bytes()) << "</p>\n";
    o << "<table id=\"machines\"><tr><th>machine</th><th>last heartbeat</th><th>jobs running</th></tr>\n";
    for (const auto& m : js.machines()) {
      o << "<tr><td>" << e(m.owner()) << "</td><td>" << seconds(m.seconds_since_heartbeat()) << " ago</td><td>"
        << m.jobs_running() << "</td></tr>\n";
    }
    o << "</table>\n";
  }
  o << "<p><a href=\"/metrics\">metrics</a> · <a href=\"/readyz\">readiness</a></p>\n</body></html>\n";
  return o.str();
}

HttpPage operator_page(const PagesContext& ctx, const std::string& path) {
  if (path == "/metrics") {
    return {200, "text/plain; version=0.0.4; charset=utf-8", ctx.service->metrics_text()};
  }
  if (path == "/healthz") return {200, "text/plain; charset=utf-8", "ok\n"};
  if (path == "/readyz") {
    std::string why;
    if (ctx.service->draining()) why += "draining: refusing new jobs before stopping\n";
    if (auto s = ctx.dispatcher->store().status(); !s.ok()) why += "job store: " + s.status().message() + "\n";
    if (access(ctx.params_dir.c_str(), R_OK | X_OK) != 0)
      why += "parameter directory " + ctx.params_dir + " cannot be read\n";
    if (why.empty()) return {200, "text/plain; charset=utf-8", "ready\n"};
    return {503, "text/plain; charset=utf-8", why};
  }
  if (path == "/") {
    pb::GetStatusResponse st;
    ctx.service->status(&st);
    auto& engine = ctx.service->engine();
    const std::string svg = engine::live_timeline_svg(engine.recent_spans(), engine.now_us() / 1e6, kTimelineSeconds,
                                                      "stages per worker, the last 120 s (newest on the right)");
    return {200, "text/html; charset=utf-8", status_html(st, ctx.grpc_address, svg)};
  }
  return {404, "text/plain; charset=utf-8", "not found: / (status), /metrics, /healthz, /readyz\n"};
}

}  // namespace zk::server
