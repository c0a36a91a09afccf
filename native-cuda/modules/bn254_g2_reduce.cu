// BN254 (snarkjs "bn128") G2 over Fq2: the rest of the MSM, bn254_g2_combine_heads, _reduce_level, _sum_groups, _ones.
#include "../curves/instantiate.cuh"

PROOFLINE_CURVE_TYPES(bn254)
PROOFLINE_COMBINE_KERNELS(bn254_g2, bn254_g2_affine_t, bn254_g2_xyzz_t)
PROOFLINE_REDUCE_LEVEL_KERNELS(bn254_g2, bn254_g2_affine_t, bn254_g2_xyzz_t)
