#pragma once

namespace zk::app {

/// `zkpipe selftest`: exercises the arithmetic core on both curves (field identities, the pairing's
/// bilinearity, a decode/encode round trip) and prints what it checked with timings. Returns the
/// process exit code.
int run_selftest(bool json);

}  // namespace zk::app
