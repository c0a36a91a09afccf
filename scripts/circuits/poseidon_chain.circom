pragma circom 2.0.0;

// The one-shot CLI benchmark's circuit (scripts/lab/cli-bench.sh): a chain of `n` Poseidon(2) hashes; at n = 218,
// compiled with --O2, 52,320 constraints (a 2^16 domain). Not a test fixture: built under .fixtures/bench/.
include "poseidon/poseidon.circom";

// Public signals: [out] (the last hash), then [seed].
template PoseidonChain(n) {
    signal input seed;
    signal input salt;
    signal output out;

    component hashers[n];
    signal node[n + 1];
    node[0] <== seed;
    for (var i = 0; i < n; i++) {
        hashers[i] = Poseidon(2);
        hashers[i].inputs[0] <== node[i];
        hashers[i].inputs[1] <== salt + i;
        node[i + 1] <== hashers[i].out;
    }
    out <== node[n];
}

component main {public [seed]} = PoseidonChain(218);
