pragma circom 2.0.0;

// A circuit whose witness computation fails for x >= 10: the generated code prints the failed
// assertion (runtime.printErrorMessage) and calls runtime.exceptionHandler(4). The log() call
// exercises runtime.writeBufferMessage and runtime.showSharedRWMemory.
template Bounded() {
    signal input x;
    signal input y;
    signal output z;
    log("bounded: x =", x, "y =", y);
    assert(x < 10);
    z <== x * y;
}

component main = Bounded();
