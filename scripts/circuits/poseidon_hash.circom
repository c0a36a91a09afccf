pragma circom 2.0.0;

// circomlib's Poseidon with its constant tables trimmed to the widths used here (t = 3, 4);
// generated into .fixtures/build/lib/poseidon/ by scripts/fixtures.sh (see scripts/node/trim-poseidon.js).
include "poseidon/poseidon.circom";

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
