// BN254 (snarkjs "bn128") G1 over Fq: the MSM's partial sums, bn254_g1_combine_heads, _sum_groups, _ones.
#include "../curves/instantiate.cuh"

PROOFLINE_CURVE_TYPES(bn254)
PROOFLINE_COMBINE_KERNELS(bn254_g1, bn254_affine_t, bn254_xyzz_t)
