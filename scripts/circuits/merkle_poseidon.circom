pragma circom 2.0.0;

// circomlib's Poseidon with its constant tables trimmed to the widths used here (t = 3, 4);
// generated into .fixtures/build/lib/poseidon/ by scripts/fixtures.sh (see scripts/node/trim-poseidon.js).
include "poseidon/poseidon.circom";

// Merkle inclusion proof of depth `levels` with Poseidon(2) as the node hash.
// Public signals: [root, leaf] (output root first, then the public input leaf).
// pathIndices[i] = 0 means the current node is the left child at level i.
template MerkleInclusion(levels) {
    signal input leaf;
    signal input pathElements[levels];
    signal input pathIndices[levels];
    signal output root;

    component hashers[levels];
    signal node[levels + 1];
    signal left[levels];
    signal right[levels];
    node[0] <== leaf;

    for (var i = 0; i < levels; i++) {
        pathIndices[i] * (1 - pathIndices[i]) === 0;
        // left = idx ? sibling : node; right = idx ? node : sibling
        left[i] <== node[i] + pathIndices[i] * (pathElements[i] - node[i]);
        right[i] <== pathElements[i] + node[i] - left[i];
        hashers[i] = Poseidon(2);
        hashers[i].inputs[0] <== left[i];
        hashers[i].inputs[1] <== right[i];
        node[i + 1] <== hashers[i].out;
    }
    root <== node[levels];
}

component main {public [leaf]} = MerkleInclusion(4);
