pragma circom 2.0.0;

include "circomlib/circuits/mimcsponge.circom";

// MiMCSponge(2 inputs, 220 rounds, 1 output) keyed by a public key k:
// public signals are [hash, k] (outputs first, then public inputs).
template MiMCHash2() {
    signal input ins[2];
    signal input k;
    signal output hash;

    component h = MiMCSponge(2, 220, 1);
    h.ins[0] <== ins[0];
    h.ins[1] <== ins[1];
    h.k <== k;
    hash <== h.outs[0];
}

component main {public [k]} = MiMCHash2();
