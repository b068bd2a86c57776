#include "snarkpack/srs.hpp"

#include <algorithm>
#include <fstream>

#include <tbb/parallel_for.h>

#include "base/rng.hpp"
#include "curve/point.hpp"
#include "curve/serialize.hpp"

namespace zk::snarkpack {
namespace {

namespace bls = curve::bls12_381;

Result<std::uint32_t> read_u32_be(const ReadAt& read, std::uint64_t offset) {
  std::uint8_t b[4];
  if (Status st = read(offset, b); !st.ok()) return st;
  return std::uint32_t{b[0]} << 24 | std::uint32_t{b[1]} << 16 | std::uint32_t{b[2]} << 8 | std::uint32_t{b[3]};
}

/// `count` compressed points of `bytes` each from `offset`, decoded with `decode`.
template <class Point, class Decode>
Status read_points(const ReadAt& read, std::uint64_t offset, std::size_t count, std::size_t bytes, Decode&& decode,
                   const char* what, std::vector<Point>& out) {
  std::vector<std::uint8_t> buf(count * bytes);
  if (Status st = read(offset, buf); !st.ok()) return st;
  out.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    auto p = decode(std::span<const std::uint8_t>(buf).subspan(i * bytes, bytes));
    if (!p.ok())
      return Status::invalid_argument(std::string(what) + "[" + std::to_string(i) + "]: " + p.status().message());
    out.push_back(*p);
  }
  return {};
}

template <class Point>
void put_vector(std::vector<std::uint8_t>& out, const std::vector<Point>& v) {
  const auto n = static_cast<std::uint32_t>(v.size());
  for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<std::uint8_t>(n >> s));
  for (const auto& p : v) {
    const auto b = bls::to_compressed(p);
    out.insert(out.end(), b.begin(), b.end());
  }
}

template <class C>
std::vector<curve::Affine<C>> powers(const Fr& x, std::size_t n) {
  std::vector<Fr> exps(n);
  Fr acc = Fr::one();
  for (std::size_t i = 0; i < n; ++i, acc = acc * x) exps[i] = acc;
  std::vector<curve::Jacobian<C>> pts(n);
  tbb::parallel_for(std::size_t{0}, n, [&](std::size_t i) { pts[i] = curve::Jacobian<C>::generator() * exps[i]; });
  return curve::batch_to_affine<C>(pts);
}

}  // namespace

Result<SrsHeader> read_srs_header(const ReadAt& read, std::uint64_t file_bytes) {
  SrsHeader h;
  std::uint64_t at = 0;
  const std::pair<std::uint32_t*, std::uint64_t> fields[] = {{&h.g_alpha, bls::kG1CompressedBytes},
                                                             {&h.g_beta, bls::kG1CompressedBytes},
                                                             {&h.h_alpha, bls::kG2CompressedBytes},
                                                             {&h.h_beta, bls::kG2CompressedBytes}};
  const char* names[] = {"g_alpha", "g_beta", "h_alpha", "h_beta"};
  for (int i = 0; i < 4; ++i) {
    if (at + 4 > file_bytes)
      return Status::invalid_argument("SRS: the file ends before " + std::string(names[i]) + "'s length");
    auto n = read_u32_be(read, at);
    if (!n.ok()) return n.status();
    if (*n == 0 || *n > kMaxSrsPoints) {
      return Status::invalid_argument("SRS: " + std::string(names[i]) + " has " + std::to_string(*n) +
                                      " points (1 to 2^20 + 1)");
    }
    *fields[i].first = *n;
    at += 4 + std::uint64_t{*n} * fields[i].second;
  }
  if (at != file_bytes) {
    return Status::invalid_argument("SRS: its lengths make " + std::to_string(at) + " bytes; the file has " +
                                    std::to_string(file_bytes));
  }
  h.bytes = at;
  return h;
}

Result<Srs> read_srs_prefix(const ReadAt& read, std::uint64_t file_bytes, std::size_t nproofs) {
  auto h = read_srs_header(read, file_bytes);
  if (!h.ok()) return h.status();
  if (nproofs == 0 || 2 * nproofs > h->g_alpha || 2 * nproofs > h->g_beta || nproofs > h->h_alpha ||
      nproofs > h->h_beta) {
    return Status::invalid_argument("SRS: " + std::to_string(nproofs) + " proofs need " + std::to_string(2 * nproofs) +
                                    " G1 and " + std::to_string(nproofs) + " G2 points per vector; it has " +
                                    std::to_string(h->g_alpha) + " and " + std::to_string(h->h_alpha));
  }
  Srs s;
  const std::uint64_t g1 = bls::kG1CompressedBytes, g2 = bls::kG2CompressedBytes;
  const std::uint64_t at_g_beta = 4 + h->g_alpha * g1, at_h_alpha = at_g_beta + 4 + h->g_beta * g1,
                      at_h_beta = at_h_alpha + 4 + h->h_alpha * g2;
  const auto dg1 = [](std::span<const std::uint8_t> b) { return bls::g1_from_compressed(b); };
  const auto dg2 = [](std::span<const std::uint8_t> b) { return bls::g2_from_compressed(b); };
  if (Status st = read_points(read, 4, 2 * nproofs, g1, dg1, "g_alpha", s.g_alpha); !st.ok()) return st;
  if (Status st = read_points(read, at_g_beta + 4, 2 * nproofs, g1, dg1, "g_beta", s.g_beta); !st.ok()) return st;
  if (Status st = read_points(read, at_h_alpha + 4, nproofs, g2, dg2, "h_alpha", s.h_alpha); !st.ok()) return st;
  if (Status st = read_points(read, at_h_beta + 4, nproofs, g2, dg2, "h_beta", s.h_beta); !st.ok()) return st;
  if (!(s.g_alpha[0] == G1Affine::generator()) || !(s.g_beta[0] == G1Affine::generator()) ||
      !(s.h_alpha[0] == G2Affine::generator()) || !(s.h_beta[0] == G2Affine::generator())) {
    return Status::invalid_argument("SRS: a vector does not start with its group's generator");
  }
  return s;
}

namespace {

/// Runs `use(read, size)` over the opened file; errors name the path.
template <class T, class F>
Result<T> with_file(const std::string& path, const F& use) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) return Status::not_found("cannot open " + path);
  const auto size = static_cast<std::uint64_t>(f.tellg());
  const ReadAt read = [&](std::uint64_t offset, std::span<std::uint8_t> out) -> Status {
    if (offset + out.size() > size) return Status::invalid_argument(path + ": read past its end");
    f.seekg(static_cast<std::streamoff>(offset));
    f.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(out.size()));
    return f ? Status() : Status::io_error("cannot read " + path);
  };
  Result<T> r = use(read, size);
  if (!r.ok()) return Status(r.status().code(), path + ": " + r.status().message());
  return r;
}

}  // namespace

Result<Srs> read_srs_file(const std::string& path, std::size_t nproofs) {
  return with_file<Srs>(path,
                        [&](const ReadAt& read, std::uint64_t size) { return read_srs_prefix(read, size, nproofs); });
}

Result<SrsHeader> read_srs_file_header(const std::string& path) {
  return with_file<SrsHeader>(path, [](const ReadAt& read, std::uint64_t size) { return read_srs_header(read, size); });
}

std::size_t srs_capacity(const SrsHeader& h) {
  return std::min<std::size_t>(std::min(h.g_alpha, h.g_beta) / 2, std::min(h.h_alpha, h.h_beta));
}

Status check_srs_file_capacity(const std::string& path, std::size_t nproofs) {
  auto h = read_srs_file_header(path);
  if (!h.ok()) return h.status();
  if (srs_capacity(*h) < nproofs) {
    return Status::invalid_argument(path + " aggregates " + std::to_string(srs_capacity(*h)) +
                                    " proofs at most; this job needs " + std::to_string(nproofs));
  }
  return {};
}

std::vector<std::uint8_t> write_srs(const Srs& srs) {
  std::vector<std::uint8_t> out;
  put_vector(out, srs.g_alpha);
  put_vector(out, srs.g_beta);
  put_vector(out, srs.h_alpha);
  put_vector(out, srs.h_beta);
  return out;
}

Srs development_srs(std::uint64_t seed, std::size_t g_points, std::size_t h_points) {
  Rng rng(seed ^ 0x736e61726b706b21ull);  // "snarkpk!"
  const Fr alpha = Fr::random(rng), beta = Fr::random(rng);
  Srs s;
  s.g_alpha = powers<curve::Bls12_381G1>(alpha, g_points);
  s.g_beta = powers<curve::Bls12_381G1>(beta, g_points);
  s.h_alpha = powers<curve::Bls12_381G2>(alpha, h_points);
  s.h_beta = powers<curve::Bls12_381G2>(beta, h_points);
  return s;
}

}  // namespace zk::snarkpack
