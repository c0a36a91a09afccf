// BLS12-381 (snarkjs "bls12381") G2 over Fq2: the MSM's partial sums, bls12_381_g2_combine_heads, _sum_groups, _ones.
#include "../curves/instantiate.cuh"

PROOFLINE_CURVE_TYPES(bls12_381)
PROOFLINE_COMBINE_KERNELS(bls12_381_g2, bls12_381_g2_affine_t, bls12_381_g2_xyzz_t)
