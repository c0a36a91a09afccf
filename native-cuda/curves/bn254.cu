// BN254 (snarkjs "bn128"): Fq, Fr, NTT over Fr and G1 MSM kernels, named bn254_*.
#include "instantiate.cuh"

PROOFLINE_CURVE_KERNELS(bn254)
