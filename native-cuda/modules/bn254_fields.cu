// BN254 (snarkjs "bn128"): Fq and Fr self-test kernels, Fr conversions and the NTT, named bn254_fq_*,
// bn254_fr_*.
#include "../curves/instantiate.cuh"

PROOFLINE_CURVE_TYPES(bn254)
PROOFLINE_FIELD_NTT_KERNELS(bn254)
