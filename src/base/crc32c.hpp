#pragma once

// CRC-32C (Castagnoli, the iSCSI / ext4 checksum): SSE4.2's crc32 instruction where the CPU has it
// (~8 bytes a cycle-latency step: several GB/s per core), a table otherwise. For detecting damage
// to files this process wrote (the key cache's blocks), not for anything adversarial.

#include <cstdint>
#include <span>

namespace zk::base {

/// The CRC-32C of `data`, continuing from `crc` (0 to start).
std::uint32_t crc32c(std::span<const std::uint8_t> data, std::uint32_t crc = 0);
/// The same by the table alone (what crc32c does without SSE4.2; for differential tests).
std::uint32_t crc32c_portable(std::span<const std::uint8_t> data, std::uint32_t crc = 0);

}  // namespace zk::base
