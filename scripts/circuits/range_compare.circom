pragma circom 2.0.0;

include "circomlib/circuits/bitify.circom";
include "circomlib/circuits/comparators.circom";

// Range and comparison checks on 64-bit values.
// Private: value, lower. Public inputs: upper, bitsOf.
// Outputs: inRange = (lower <= value < upper), isEq = (value == upper), bits = Num2Bits(16)(bitsOf),
// sum = Bits2Num of those bits (must equal bitsOf).
template RangeCompare(n) {
    signal input value;
    signal input lower;
    signal input upper;
    signal input bitsOf;
    signal output inRange;
    signal output isEq;
    signal output bits[16];

    // value, lower, upper must all fit in n bits
    component rv = Num2Bits(n);
    rv.in <== value;
    component rl = Num2Bits(n);
    rl.in <== lower;
    component ru = Num2Bits(n);
    ru.in <== upper;

    component lt = LessThan(n);
    lt.in[0] <== value;
    lt.in[1] <== upper;

    component ge = GreaterEqThan(n);
    ge.in[0] <== value;
    ge.in[1] <== lower;

    inRange <== lt.out * ge.out;

    component eq = IsEqual();
    eq.in[0] <== value;
    eq.in[1] <== upper;
    isEq <== eq.out;

    component nb = Num2Bits(16);
    nb.in <== bitsOf;
    component back = Bits2Num(16);
    for (var i = 0; i < 16; i++) {
        bits[i] <== nb.out[i];
        back.in[i] <== nb.out[i];
    }
    back.out === bitsOf;
}

component main {public [upper, bitsOf]} = RangeCompare(64);
