// BLS12-381 (snarkjs "bls12381") G1 over Fq: the MSM's partial sums, bls12_381_g1_combine_heads, _sum_groups, _ones.
#include "../curves/instantiate.cuh"

PROOFLINE_CURVE_TYPES(bls12_381)
PROOFLINE_COMBINE_KERNELS(bls12_381_g1, bls12_381_affine_t, bls12_381_xyzz_t)
