pragma circom 2.0.0;

include "circomlib/circuits/poseidon.circom";

// Poseidon hash of three private field elements; the digest is the only public signal.
template PoseidonHash3() {
    signal input in[3];
    signal output hash;

    component h = Poseidon(3);
    for (var i = 0; i < 3; i++) {
        h.inputs[i] <== in[i];
    }
    hash <== h.out;
}

component main = PoseidonHash3();
