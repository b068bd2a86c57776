pragma circom 2.0.0;
// x_{i+1} = x_i * x_i + i for N steps; public signals: [out (= x_N), x0]
template Chain(N) {
  signal input x0;
  signal output out;
  signal x[N + 1];
  x[0] <== x0;
  for (var i = 0; i < N; i++) {
    x[i + 1] <== x[i] * x[i] + i;
  }
  out <== x[N];
}
component main {public [x0]} = Chain(100);
