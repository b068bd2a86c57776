#include "snarkpack/challenges.hpp"

#include <string>

#include "snarkpack/transcript.hpp"

namespace zk::snarkpack {
namespace {

/// Round i's messages in the order the transcript takes them.
Transcript& write_round(Transcript& t, const GipaProof& g, std::size_t i) {
  t.write(g.z_ab[i][0]).write(g.z_ab[i][1]).write(g.z_c[i][0]).write(g.z_c[i][1]);
  for (const auto& c : g.comms_ab[i]) t.write(c.t).write(c.u);
  for (const auto& c : g.comms_c[i]) t.write(c.t).write(c.u);
  return t;
}

}  // namespace

Fr hcom_challenge(const Commitment& com_ab, const Commitment& com_c) {
  return Transcript("hcom").write(com_ab.t).write(com_ab.u).write(com_c.t).write(com_c.u).challenge();
}

Fr r_challenge(const Fr& hcom, std::span<const std::uint8_t> transcript_include) {
  return Transcript("random-r").write(hcom).write_bytes(transcript_include).challenge();
}

Fr first_challenge_inv(const Fr& hcom, const Fq12& ip_ab, const G1Affine& agg_c, const Fr& r) {
  return Transcript("gipa-0").write(hcom).write(ip_ab).write(agg_c).write(r).challenge();
}

Fr round_challenge_inv(const GipaProof& g, std::size_t i, const Fr& c_inv, Version v) {
  if (i == 0 && v == Version::kV1) return c_inv;
  Transcript t("gipa-" + std::to_string(i));
  t.write(c_inv);
  return write_round(t, g, i).challenge();
}

KzgPoint kzg_point(const GipaProof& g, const Fr& last_challenge, Version v) {
  KzgPoint k;
  if (v == Version::kV1) {
    k.z = Transcript("random-z")
              .write(last_challenge)
              .write(g.final_vkey[0])
              .write(g.final_vkey[1])
              .write(g.final_wkey[0])
              .write(g.final_wkey[1])
              .challenge();
    return k;
  }
  Transcript extra("gipa-extra-link");
  extra.write(last_challenge).write(g.final_a).write(g.final_b).write(g.final_c);
  k.extra = write_round(extra, g, g.comms_ab.size() - 1).challenge();
  k.z = Transcript("random-z")
            .write(k.extra)
            .write(g.final_vkey[0])
            .write(g.final_vkey[1])
            .write(g.final_wkey[0])
            .write(g.final_wkey[1])
            .write(g.final_a)
            .write(g.final_b)
            .write(g.final_c)
            .challenge();
  return k;
}

}  // namespace zk::snarkpack
