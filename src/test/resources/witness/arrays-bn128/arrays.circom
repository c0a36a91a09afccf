pragma circom 2.0.0;

// Scalar, 1-D and 2-D array inputs: checks snarkjs's row-major flattening and signal-hash lookup.
template Arrays(R, C) {
    signal input a;
    signal input v[C];
    signal input m[R][C];
    signal output dot[R];
    signal output scaled;

    signal prod[R][C];
    var acc[R];
    for (var i = 0; i < R; i++) {
        acc[i] = 0;
        for (var j = 0; j < C; j++) {
            prod[i][j] <== m[i][j] * v[j];
            acc[i] += prod[i][j];
        }
        dot[i] <== acc[i];
    }
    var s = 0;
    for (var j = 0; j < C; j++) {
        s += v[j];
    }
    scaled <== a * s;
}

component main {public [a]} = Arrays(2, 3);
