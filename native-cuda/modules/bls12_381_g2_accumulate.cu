// BLS12-381 (snarkjs "bls12381") G2 over Fq2: level 0 of the MSM's bucket sums, bls12_381_g2_accumulate_tasks.
#include "../curves/instantiate.cuh"

PROOFLINE_CURVE_TYPES(bls12_381)
PROOFLINE_ACCUMULATE_KERNELS(bls12_381_g2, bls12_381_g2i_affine_t, bls12_381_g2i_xyzz_t)
