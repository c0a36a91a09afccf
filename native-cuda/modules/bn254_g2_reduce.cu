// BN254 (snarkjs "bn128") G2 over Fq2: the MSM's partial sums, bn254_g2_combine_heads, _sum_groups, _ones.
#include "../curves/instantiate.cuh"

PROOFLINE_CURVE_TYPES(bn254)
PROOFLINE_COMBINE_KERNELS(bn254_g2, bn254_g2_affine_t, bn254_g2_xyzz_t)
