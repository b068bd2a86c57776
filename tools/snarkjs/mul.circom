pragma circom 2.0.0;
template Mul() {
  signal input a; signal input b; signal input c; signal input k;
  signal output out;
  signal ab;
  ab <== a * b;
  out <== ab * c + k;
}
component main {public [k]} = Mul();
