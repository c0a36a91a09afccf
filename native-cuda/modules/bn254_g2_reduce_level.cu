// BN254 (snarkjs "bn128") G2 over Fq2: the MSM's bucket reduction, bn254_g2_reduce_level (a unit of its own, as G1's,
// so that the build compiles it beside the partial sums).
#include "../curves/instantiate.cuh"

PROOFLINE_CURVE_TYPES(bn254)
PROOFLINE_REDUCE_LEVEL_KERNELS(bn254_g2, bn254_g2_affine_t, bn254_g2_xyzz_t)
