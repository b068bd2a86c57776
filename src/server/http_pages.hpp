#pragma once

// The daemon's pages on the operators' HTTP listener (docs/daemon.md, "HTTP for operators"), all
// read from what the RPCs read (ProvingService::metrics_text and ::status):
//   /metrics  Prometheus text exposition format 0.0.4
//   /healthz  200 while the process serves
//   /readyz   200 when it can take work: not draining, the job store answers, the parameter
//             directory is readable; else 503 naming what is not
//   /         the status page (HTML, refreshes itself; no scripts, nothing from elsewhere), with
//             the pipeline's last kTimelineSeconds drawn as the bench's timeline (engine/timeline.hpp)

#include <string>

#include "server/http_listener.hpp"
#include "server/service.hpp"

namespace zk::server {

struct PagesContext {
  ProvingService* service = nullptr;
  Dispatcher* dispatcher = nullptr;
  std::string params_dir;
  std::string grpc_address;  // shown on the status page
};

HttpPage operator_page(const PagesContext& ctx, const std::string& path);

/// The status page's HTML from a GetStatus answer and the pipeline timeline's SVG (everything
/// escaped; exposed for tests).
std::string status_html(const pb::GetStatusResponse& st, const std::string& grpc_address,
                        const std::string& timeline_svg);
/// How much of the pipeline's recent past the status page draws.
inline constexpr double kTimelineSeconds = 120;

}  // namespace zk::server
