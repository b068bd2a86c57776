#pragma once

// Proving keys mapped, not read whole (docs/groth16.md, "Key cache"). A bellman .params file stores
// points big-endian and in canonical form; the prover needs them in Montgomery form. The first load
// decodes the file once, streaming, into a native cache file (the in-memory layout of the points,
// each query page-aligned); every later load maps that cache read-only, so a 47 GB Filecoin key
// costs no decoding and no heap: its pages are the kernel's page cache, read when an MSM first
// touches them, shared between processes, and reclaimable under memory pressure.
//
// A cache file names its source by file name, size, modification time and a sample of its bytes,
// is spot-checked against the source (the first and last point of every query) and has every 4 MiB
// block checked against its CRC-32C (in parallel) each time it is mapped; a stale or damaged cache
// is rebuilt, the reason logged. It is written to a temporary name, fsynced, made read-only and
// renamed, so a crash never leaves a half-written cache that could be mapped, and one builder at a
// time makes it (an flock on "<cache>.lock"; the others wait, then map its result). The directory
// must be ours and writable by nobody else (docs/groth16.md, "Key cache").

#include <cstdint>
#include <filesystem>
#include <string>

#include "base/status.hpp"
#include "groth16/keys.hpp"

namespace zk::groth16 {

/// $ZKPIPE_KEY_CACHE, else $XDG_CACHE_HOME/zkpipe/keys, else $HOME/.cache/zkpipe/keys; never a
/// shared default such as /tmp (INVALID_ARGUMENT when none of the three is set).
Result<std::filesystem::path> default_key_cache_dir();

struct KeyCacheStats {
  bool built = false;            // the cache was (re)built by this call
  std::filesystem::path file;    // the cache file mapped
  std::uint64_t mapped_bytes = 0;
  std::string rebuilt_because;   // built over an existing file: why it could not be used
  double seconds = 0;            // checking (and building) the cache
};

/// Checks a cache file's header and every block's checksum again (after a proof made with its key
/// failed verification): IO_ERROR naming the file and the first damaged block.
Status check_key_cache(const std::filesystem::path& file);

/// The proving key of `params` (bellman layout) with its queries mapped from the cache in
/// `cache_dir` (created if needed), building the cache first when it is missing or stale. The
/// verifying key is decoded from the parameter file and checked; query points are checked on the
/// curve when the cache is built (their subgroup checks are skipped, as bellperson does for large
/// keys: the daemon verifies each proof instead). Errors name the file; a cache that cannot be
/// written (no space, read-only directory) is an IO_ERROR saying how much room it needs.
template <class E>
Result<ProvingKey<E>> map_parameters(const std::filesystem::path& params, const std::filesystem::path& cache_dir,
                                     KeyCacheStats* stats = nullptr);

/// Pages of a mapped key's cache read after they had left the file — it was truncated or
/// rewritten in place while mapped; they read as zeros, so whatever used the key since is void (0
/// for a sound key, or one that owns its points).
template <class E>
std::uint64_t mapped_lost_pages(const ProvingKey<E>& pk);
/// The cache file a key is mapped from (empty when it owns its points).
template <class E>
std::filesystem::path mapped_cache_file(const ProvingKey<E>& pk);

/// Bytes of the key's mapped queries now resident in memory (0 for a key that owns its points).
template <class E>
std::uint64_t mapped_resident_bytes(const ProvingKey<E>& pk);

}  // namespace zk::groth16
