// BLS12-381 (snarkjs "bls12381") G2 over Fq2: the MSM's bucket reduction, bls12_381_g2_reduce_level (a unit of its
// own, as G1's, so that the build compiles it beside the partial sums).
#include "../curves/instantiate.cuh"

PROOFLINE_CURVE_TYPES(bls12_381)
PROOFLINE_REDUCE_LEVEL_KERNELS(bls12_381_g2, bls12_381_g2_affine_t, bls12_381_g2_xyzz_t)
