// BN254 (snarkjs "bn128") G1 over Fq: the MSM's bucket reduction, bn254_g1_reduce_level (the slowest kernel to compile,
// so a unit of its own).
#include "../curves/instantiate.cuh"

PROOFLINE_CURVE_TYPES(bn254)
PROOFLINE_REDUCE_LEVEL_KERNELS(bn254_g1, bn254_affine_t, bn254_xyzz_t)
