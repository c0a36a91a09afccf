// The a/b/c kernels of both curves (abc/abc.cuh): their own module, abc.fatbin, so that a change to them compiles in
// seconds.
#include "../abc/abc.cuh"

PROOFLINE_ABC_KERNELS(bn254)
PROOFLINE_ABC_KERNELS(bls12_381)
