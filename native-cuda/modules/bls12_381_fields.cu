// BLS12-381 (snarkjs "bls12381"): Fq and Fr self-test kernels, Fr conversions and the NTT, named bls12_381_fq_*,
// bls12_381_fr_*.
#include "../curves/instantiate.cuh"

PROOFLINE_CURVE_TYPES(bls12_381)
PROOFLINE_FIELD_NTT_KERNELS(bls12_381)
