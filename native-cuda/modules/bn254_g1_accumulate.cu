// BN254 (snarkjs "bn128") G1 over Fq: level 0 of the MSM's bucket sums, bn254_g1_accumulate_tasks.
#include "../curves/instantiate.cuh"

PROOFLINE_CURVE_TYPES(bn254)
PROOFLINE_ACCUMULATE_KERNELS(bn254_g1, bn254_affine_t, bn254_xyzz_t)
