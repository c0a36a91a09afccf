// BLS12-381 (snarkjs "bls12381") G1 over Fq: level 0 of the MSM's bucket sums, bls12_381_g1_accumulate_tasks.
#include "../curves/instantiate.cuh"

PROOFLINE_CURVE_TYPES(bls12_381)
PROOFLINE_ACCUMULATE_KERNELS(bls12_381_g1, bls12_381_affine_t, bls12_381_xyzz_t)
