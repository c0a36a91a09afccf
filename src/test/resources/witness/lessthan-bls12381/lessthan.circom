pragma circom 2.0.0;

include "circomlib/circuits/comparators.circom";

// circomlib gadgets (Num2Bits inside LessThan, IsZero): sub-components, <-- hints and bit loops.
template RangeCheck(n) {
    signal input a;
    signal input b;
    signal output lt;
    signal output isZero;
    component c = LessThan(n);
    c.in[0] <== a;
    c.in[1] <== b;
    lt <== c.out;
    component z = IsZero();
    z.in <== a;
    isZero <== z.out;
}

component main {public [b]} = RangeCheck(16);
