// Host test of safegcd.cuh (runs no kernel, needs no GPU): prints "curve x inverse" lines in hex for edge cases and
// random x below p, which check_safegcd.py verifies with Python's own modular inverse.
//   nvcc -std=c++17 -o /tmp/safegcd_test docs/lab/batch-affine/safegcd_test.cu && /tmp/safegcd_test | \
//     python3 docs/lab/batch-affine/check_safegcd.py
#include <cstdio>
#include <cstdint>
#include <random>
#include "../../../native-cuda/ff/fields.cuh"
#include "safegcd.cuh"

template <class Params>
static void print_words(const uint32_t* w) {
    for (int j = Params::LIMBS - 1; j >= 0; j--) printf("%08x", w[j]);
}

/** x < p: random words with the top one masked below p's top word (so x < p). */
template <class Params>
static void run(const char* name, int randoms, std::mt19937_64& rng) {
    using G = proofline::lab::safegcd<Params>;
    constexpr int W = Params::LIMBS;
    std::vector<std::vector<uint32_t>> inputs;
    auto word_vector = [](uint64_t low) {
        std::vector<uint32_t> w(W, 0);
        w[0] = uint32_t(low);
        w[1] = uint32_t(low >> 32);
        return w;
    };
    inputs.push_back(word_vector(0));
    inputs.push_back(word_vector(1));
    inputs.push_back(word_vector(2));
    std::vector<uint32_t> pm1(W), pm2(W), top(W, 0);
    for (int j = 0; j < W; j++) pm1[j] = pm2[j] = Params::modulus(j);
    pm1[0] -= 1;  // p is odd, p₀ > 2: no borrow
    pm2[0] -= 2;
    inputs.push_back(pm1);
    inputs.push_back(pm2);
    top[W - 1] = 1u << ((Params::BITS - 2) % 32);  // 2^(b−2)
    inputs.push_back(top);
    for (int k = 0; k < randoms; k++) {
        std::vector<uint32_t> w(W);
        for (int j = 0; j < W; j++) w[j] = uint32_t(rng());
        w[W - 1] %= Params::modulus(W - 1);
        inputs.push_back(w);
    }
    for (const auto& x : inputs) {
        uint32_t inv[W];
        G::invert_words(x.data(), inv);
        printf("%s ", name);
        print_words<Params>(x.data());
        printf(" ");
        print_words<Params>(inv);
        printf("\n");
    }
}

int main(int argc, char** argv) {
    const int randoms = argc > 1 ? atoi(argv[1]) : 20000;
    std::mt19937_64 rng(21);
    run<proofline::ff::bn254_fq_params>("bn254_fq", randoms, rng);
    run<proofline::ff::bn254_fr_params>("bn254_fr", randoms, rng);
    run<proofline::ff::bls12_381_fq_params>("bls12_381_fq", randoms, rng);
    run<proofline::ff::bls12_381_fr_params>("bls12_381_fr", randoms, rng);
    return 0;
}
