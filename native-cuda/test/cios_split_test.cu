// Host test of ff/cios_split.cuh (the carry chains emulated on the CPU): prints, for random a, b < p of each field,
// "field a b t" in hex, where t is mul_split's unreduced result; CiosSplitHostTest checks t ≡ a·b·2^(−32N) (mod p)
// and t < 2p against BigInteger (nvcc compiles this for the host; no GPU needed).
#include <cstdio>
#include <cstdint>
#include <random>
#include "../ff/fields.cuh"
#include "../ff/cios_split.cuh"

using namespace proofline::ff;

template <class Params>
static void below_p(uint32_t (&v)[Params::LIMBS], std::mt19937_64& rng, int kind) {
    constexpr int N = Params::LIMBS;
    for (int k = 0; k < N; k++) v[k] = uint32_t(rng());
    if (kind == 1) {  // p − 1 − small: carries everywhere
        uint32_t borrow = 1 + uint32_t(rng() % 3);
        for (int k = 0; k < N; k++) {
            uint64_t d = uint64_t(Params::modulus(k)) - borrow;
            v[k] = uint32_t(d);
            borrow = (d >> 63) ? 1 : 0;
        }
        return;
    }
    if (kind == 2) {  // small values
        for (int k = 1; k < N; k++) v[k] = 0;
        return;
    }
    // Clear bits above p's top bit, then retry by masking the top limb further until below p.
    int top_bits = Params::BITS - 32 * (N - 1);
    v[N - 1] &= (top_bits >= 32) ? 0xffffffffu : ((1u << top_bits) - 1);
    while (true) {
        bool less = false, equal = true;
        for (int k = N - 1; k >= 0 && equal; k--) {
            if (v[k] != Params::modulus(k)) {
                less = v[k] < Params::modulus(k);
                equal = false;
            }
        }
        if (less) return;
        v[N - 1] >>= 1;
    }
}

template <class Params>
static void run(const char* name, std::mt19937_64& rng, int count) {
    constexpr int N = Params::LIMBS;
    for (int i = 0; i < count; i++) {
        uint32_t a[N], b[N], t[N], t_hi;
        below_p<Params>(a, rng, i % 7 == 1 ? 1 : (i % 11 == 2 ? 2 : 0));
        below_p<Params>(b, rng, i % 5 == 3 ? 1 : (i % 13 == 4 ? 2 : 0));
        mul_split<N, Params>(t, t_hi, a, b);
        std::printf("%s ", name);
        for (int k = N - 1; k >= 0; k--) std::printf("%08x", a[k]);
        std::printf(" ");
        for (int k = N - 1; k >= 0; k--) std::printf("%08x", b[k]);
        std::printf(" %08x", t_hi);
        for (int k = N - 1; k >= 0; k--) std::printf("%08x", t[k]);
        std::printf("\n");
    }
}

int main() {
    std::mt19937_64 rng(20261203);
    run<bn254_fq_params>("bn254_fq", rng, 20000);
    run<bn254_fr_params>("bn254_fr", rng, 20000);
    run<bls12_381_fq_params>("bls12_381_fq", rng, 20000);
    run<bls12_381_fr_params>("bls12_381_fr", rng, 20000);
    return 0;
}
