// The operators' HTTP listener's pieces: daemon.http_listen parsing (loopback or not), the status
// page's escaping and content from a GetStatus answer.

#include <gtest/gtest.h>

#include "server/http_listener.hpp"
#include "engine/timeline.hpp"
#include "server/http_pages.hpp"

namespace zk::server {
namespace {

TEST(HttpListen, ParsesLoopbackAndPublicAddresses) {
  auto a = parse_http_listen("127.0.0.1:9821");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->host, "127.0.0.1");
  EXPECT_EQ(a->port, 9821u);
  EXPECT_TRUE(a->loopback);
  EXPECT_FALSE(a->ipv6);
  a = parse_http_listen("localhost:0");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->host, "127.0.0.1");
  EXPECT_TRUE(a->loopback);
  a = parse_http_listen("[::1]:80");
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE(a->ipv6);
  EXPECT_TRUE(a->loopback);
  a = parse_http_listen("0.0.0.0:9821");
  ASSERT_TRUE(a.ok());
  EXPECT_FALSE(a->loopback);
  a = parse_http_listen("[::]:9821");
  ASSERT_TRUE(a.ok());
  EXPECT_FALSE(a->loopback);
  a = parse_http_listen("10.1.2.3:1");
  ASSERT_TRUE(a.ok());
  EXPECT_FALSE(a->loopback);
}

TEST(HttpListen, RefusesWhatIsNotAnAddressAndPort) {
  for (const char* bad : {"", "9821", ":9821", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1",
                          "127.0.0.1:+80", "127.0.0.1:0x50", "example.com:80", "::1:80", "[::1]80", "[::1:80",
                          "[127.0.0.1]:80", "127.0.0.1:80 ", "1.2.3:80"}) {
    auto a = parse_http_listen(bad);
    EXPECT_FALSE(a.ok()) << bad;
    if (!a.ok()) {
      EXPECT_NE(a.status().message().find("daemon.http_listen"), std::string::npos) << a.status().message();
    }
  }
}

TEST(HttpListener, APublicAddressNeedsTlsOrAnExplicitSetting) {
  HttpListenerConfig c;
  c.listen = "0.0.0.0:0";
  auto l = HttpListener::start(c, [](const std::string&) { return HttpPage{}; });
  ASSERT_FALSE(l.ok());
  EXPECT_NE(l.status().message().find("not a loopback address"), std::string::npos) << l.status().message();
  c.tls_cert = "/nonexistent.pem";
  l = HttpListener::start(c, [](const std::string&) { return HttpPage{}; });
  ASSERT_FALSE(l.ok());
  EXPECT_NE(l.status().message().find("daemon.http_tls_cert and daemon.http_tls_key go together"), std::string::npos);
}

TEST(StatusPage, EscapesWhatItShowsAndNamesTheWork) {
  pb::GetStatusResponse st;
  st.set_version("zkpipe test");
  auto* q = st.add_queues();
  q->set_circuit("porep");
  q->set_jobs_queued(2);
  auto* w = st.add_workers();
  w->set_name("synthesis-0");
  w->set_job_id(42);
  w->set_circuit("porep");
  w->set_busy_ms(1500);
  st.add_workers()->set_name("prover-0");
  auto* p = st.add_params();
  p->set_id("<script>alert(1)</script>");
  st.mutable_store()->set_location("sqlite:/var/lib/zkpipe/jobs.db");
  const std::string html = status_html(st, "unix:///run/zkpipe/zkpipe.sock", "<svg id=\"t\"></svg>");
  EXPECT_NE(html.find("<tr class=\"busy\"><td>synthesis-0</td><td>porep job 42 partition 0</td><td>1.5 s</td>"),
            std::string::npos);
  EXPECT_NE(html.find("<td>prover-0</td><td>idle</td>"), std::string::npos);
  EXPECT_NE(html.find("<td>porep</td><td>2</td>"), std::string::npos);
  EXPECT_EQ(html.find("<script>"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("http-equiv=\"refresh\""), std::string::npos);
  EXPECT_NE(html.find("<div id=\"timeline\"><svg id=\"t\"></svg></div>"), std::string::npos);
}

TEST(StatusPage, NamesThePartitionOnEachGpu) {
  pb::GetStatusResponse st;
  auto* g = st.add_gpus();
  g->set_ordinal(0);
  g->set_name("NVIDIA H200");
  g->set_turns(12);
  g->set_busy_s(9.5);
  g->set_job_id("curio-<7>");
  g->set_kind("porep:32GiB");
  g->set_partition(3);
  g->set_resident_bytes(std::uint64_t{38} << 30);
  g->set_resident_capacity_bytes(std::uint64_t{69} << 30);
  g->set_pool_bytes(std::uint64_t{30} << 30);
  st.add_gpus()->set_ordinal(1);
  const std::string html = status_html(st, "unix:///run/zkpipe/zkpipe.sock", "");
  EXPECT_NE(html.find("<table id=\"gpus\">"), std::string::npos);
  EXPECT_NE(html.find("<tr class=\"busy\"><td>0 NVIDIA H200</td><td>porep:32GiB job curio-&lt;7&gt; partition 3</td>"
                      "<td>12</td><td>9.5 s</td>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<tr><td>1 </td><td></td><td>0</td>"), std::string::npos);
  EXPECT_NE(html.find("<td>38.00 GiB of 69.00 GiB</td><td>30.00 GiB</td></tr>"), std::string::npos)
      << "resident bases of their capacity, the kernels' pool: " << html;
  // No GPU table when prove_start runs on the CPU.
  EXPECT_EQ(status_html(pb::GetStatusResponse(), "x", "").find("id=\"gpus\""), std::string::npos);
}

TEST(StatusPage, TheLiveTimelineDrawsTheRecentStagesOfEachWorker) {
  std::vector<engine::TraceSpan> spans = {
      {"synthesis-0", "synthesis", 7, 0, 100e6, 5e6},    // 100-105 s
      {"prover-0", "prove_start", 7, 0, 106e6, 2e6},     // 106-108 s
      {"synthesis-0", "synthesis", 6, 1, 10e6, 1e6},     // long before the window
      {"finalizer-0", "prove_finish", 8, 2, 150e6, 1e6}  // after "now" (not drawn)
  };
  const std::string svg = engine::live_timeline_svg(spans, 110, 60, "t <&>");
  EXPECT_NE(svg.find("<title>synthesis job 7 partition 0: 5000 ms</title>"), std::string::npos);
  EXPECT_NE(svg.find("<title>prove_start job 7 partition 0: 2000 ms</title>"), std::string::npos);
  EXPECT_EQ(svg.find("job 6 partition 1"), std::string::npos);
  EXPECT_EQ(svg.find("job 8 partition 2"), std::string::npos);
  EXPECT_NE(svg.find("t &lt;&amp;&gt;"), std::string::npos);
  EXPECT_NE(svg.find(">prover-0</text>"), std::string::npos);
}

}  // namespace
}  // namespace zk::server
