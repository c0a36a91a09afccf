// BLS12-381 (snarkjs "bls12381") G1 over Fq: the MSM's bucket reduction, bls12_381_g1_reduce_level (the slowest kernel
// to compile, so a unit of its own).
#include "../curves/instantiate.cuh"

PROOFLINE_CURVE_TYPES(bls12_381)
PROOFLINE_REDUCE_LEVEL_KERNELS(bls12_381_g1, bls12_381_affine_t, bls12_381_xyzz_t)
