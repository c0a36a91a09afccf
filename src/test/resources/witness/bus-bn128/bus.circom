pragma circom 2.2.0;

// circom 2.2 bus inputs: the witness calculator addresses them as "p.x", "ps[1].y" (qualified
// names), which the JSON input gives as nested objects and arrays of objects.
bus Point() {
    signal x;
    signal y;
}

template BusSum(n) {
    input Point() p;
    input Point() ps[n];
    signal input k[2];
    signal output sx;
    signal output sy;
    var ax = p.x;
    var ay = p.y;
    for (var i = 0; i < n; i++) {
        ax += ps[i].x;
        ay += ps[i].y;
    }
    sx <== ax * k[0];
    sy <== ay * k[1];
}

component main = BusSum(2);
