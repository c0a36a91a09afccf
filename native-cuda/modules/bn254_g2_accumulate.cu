// BN254 (snarkjs "bn128") G2 over Fq2: level 0 of the MSM's bucket sums, bn254_g2_accumulate_tasks.
#include "../curves/instantiate.cuh"

PROOFLINE_CURVE_TYPES(bn254)
PROOFLINE_ACCUMULATE_KERNELS(bn254_g2, bn254_g2i_affine_t, bn254_g2i_xyzz_t)
