// BLS12-381 (snarkjs "bls12381"): Fq, Fr, NTT over Fr and G1 MSM kernels, named bls12_381_*.
#include "instantiate.cuh"

PROOFLINE_CURVE_KERNELS(bls12_381)
