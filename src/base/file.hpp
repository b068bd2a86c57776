#pragma once

// The one way zkpipe reads a file named by a user or a client: regular files only (a directory, a
// FIFO or a device gets a clear error instead of an allocation sized by a meaningless tellg()), the
// size checked against a ceiling before anything is allocated, short reads and growth detected.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "base/status.hpp"

namespace zk {

/// Files larger than this are never read whole: the machine's physical memory (a bigger file could
/// not fit anyway; parameter files that large are mapped, not read).
std::uint64_t default_max_read_bytes();

/// The size of a regular file; NOT_FOUND if it does not exist, INVALID_ARGUMENT if it is not a
/// regular file (a directory, a socket, a FIFO, a device).
Result<std::uint64_t> regular_file_size(const std::filesystem::path& path);

/// The whole file, if it is a regular file of at most `max_bytes` (RESOURCE_EXHAUSTED otherwise,
/// naming the size and the ceiling).
Result<std::vector<std::uint8_t>> read_file(const std::filesystem::path& path,
                                            std::uint64_t max_bytes = default_max_read_bytes());
/// The same as text (configuration files, JSON).
Result<std::string> read_text_file(const std::filesystem::path& path, std::uint64_t max_bytes = default_max_read_bytes());

}  // namespace zk
