// Lab experiment (issue #21): batch-affine bucket accumulation against the kernels' XYZZ mixed addition, on the
// device, with the project's field and curve code (native-cuda/ff, native-cuda/ec). Not part of the build.
//
// The question: a bucket sum by affine additions costs 6 multiplications per addition (λ = Δy/Δx: 1M; x3 = λ² − x1
// − x2: 1S; y3 = λ(x1 − x3) − y1: 1M; Montgomery's trick over the batch: 3M per element) plus one inversion per batch,
// against 10 for madd-2008-s (8M + 2S). The batch's additions must be independent, so a thread adds one point into
// each of K buckets ("lanes") per step and shares one inversion among the K; its K accumulators and K prefix products
// live in local memory. Per addition: 6 + inversion/K multiplications, plus the local memory traffic.
//
// What it times (CUDA events, median of 7 after 2 warm-ups), per curve (BN254 and BLS12-381 G1):
//   mul       chains of Montgomery multiplications: the rate one multiplication costs (ns per multiplication)
//   inv       inversions, one per thread, in multiplications: Fermat's x^(p−2) (fixed 4-bit windows) and divsteps
//             (safegcd.cuh: integer work on 30-bit limbs, constant time); the two are checked equal on every input
//   xyzz m    the kernels' accumulation: a thread per task of m points (task = bucket), XYZZ += affine
//   batch K m batch-affine: a thread per K tasks of m points, one inversion per step (Fermat, or divsteps: "ds")
// Every configuration adds the same P points (pairs: a random permutation, so loads gather as the real ones do), and
// each batch-affine result is checked against the XYZZ result of the same tasks (X = x·ZZ, Y = y·ZZZ).
//
//   nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/batch_affine docs/lab/batch-affine/batch_affine.cu && /tmp/batch_affine
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <random>
#include <cuda_runtime.h>
#include "../../../native-cuda/curves/instantiate.cuh"
#include "safegcd.cuh"

using namespace proofline;

#define CHECK(x)                                                                                       \
    do {                                                                                               \
        cudaError_t e_ = (x);                                                                          \
        if (e_ != cudaSuccess) {                                                                       \
            fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));         \
            exit(1);                                                                                   \
        }                                                                                              \
    } while (0)

/** x^(p−2) with fixed 4-bit windows: BITS squarings and about BITS/4 multiplications, plus 14 for the table. */
template <class Fq, class Params>
__device__ __forceinline__ Fq invert(const Fq& x) {
    Fq table[16];
    table[0] = Fq::one();
    table[1] = x;
#pragma unroll 1
    for (int i = 2; i < 16; i++) table[i] = table[i - 1] * x;
    Fq r = Fq::one();
    bool started = false;
#pragma unroll 1
    for (int word = Params::LIMBS - 1; word >= 0; word--) {
        const uint32_t e = Params::modulus(word) - (word == 0 ? 2u : 0u);  // p − 2: p is odd and p₀ > 2
#pragma unroll 1
        for (int nib = 7; nib >= 0; nib--) {
            const uint32_t d = (e >> (4 * nib)) & 15u;
            if (started) {
                r = r.sqr();
                r = r.sqr();
                r = r.sqr();
                r = r.sqr();
            }
            if (d != 0) {
                r = started ? r * table[d] : table[d];
                started = true;
            }
        }
    }
    return r;
}

/**
 * x⁻¹ in Montgomery form by divsteps: the inverse of x's words (x·R)⁻¹, times R³ by a Montgomery multiplication,
 * is x⁻¹·R. r3 = R³ mod p (r3_of()), computed once per thread.
 */
template <class Fq, class Params>
__device__ __forceinline__ Fq invert_divsteps(const Fq& x, const Fq& r3) {
    Fq plain;
    lab::safegcd<Params>::invert_words(x.v, plain.v);
    return plain * r3;
}

template <class Fq, class Params>
__device__ __forceinline__ Fq r3_of() {
    Fq r2;
    for (int i = 0; i < Fq::N; i++) r2.v[i] = Params::r_squared(i);
    return r2 * r2;  // R²·R²/R
}

/** The inversion a batch shares: Fermat's, or divsteps. */
template <class Fq, class Params, bool Divsteps>
__device__ __forceinline__ Fq invert_with(const Fq& x, const Fq& r3) {
    if constexpr (Divsteps) {
        return invert_divsteps<Fq, Params>(x, r3);
    } else {
        return invert<Fq, Params>(x);
    }
}

template <class Fq>
struct Curve;

template <>
struct Curve<ff::mont_t<ff::bn254_fq_params>> {
    using Params = ff::bn254_fq_params;
    static constexpr const char* NAME = "bn254";
    // G1 generator (1, 2), canonical little-endian words.
    static constexpr uint32_t GX[8] = {1, 0, 0, 0, 0, 0, 0, 0};
    static constexpr uint32_t GY[8] = {2, 0, 0, 0, 0, 0, 0, 0};
};

template <>
struct Curve<ff::mont_t<ff::bls12_381_fq_params>> {
    using Params = ff::bls12_381_fq_params;
    static constexpr const char* NAME = "bls12_381";
    static constexpr uint32_t GX[12] = {0xdb22c6bb, 0xfb3af00a, 0xf97a1aef, 0x6c55e83f, 0x171bac58, 0xa14e3a3f,
                                        0x9774b905, 0xc3688c4f, 0x4fa9ac0f, 0x2695638c, 0x3197d794, 0x17f1d3a7};
    static constexpr uint32_t GY[12] = {0x46c5e7e1, 0x0caa2329, 0xa2888ae4, 0xd03cc744, 0x2c04b3ed, 0x00db18cb,
                                        0xd5d00af6, 0xfcf5e095, 0x741d8ae4, 0xa09e30ed, 0xe3aaa0f1, 0x08b3f481};
};

/** splitmix64: the discrete logs of the points. */
__device__ __forceinline__ uint64_t mix64(uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/**
 * points[t] = k_t·G in affine form, k_t a random 64-bit integer: distinct points whose partial sums do not meet
 * another point (with small logs such as t + 1, a sum k₀ + k₁ is often some k₂, an equal-x addition).
 */
template <class Fq>
__global__ void make_points(ec::affine_t<Fq>* points, size_t n, Fq gx, Fq gy) {
    using P = typename Curve<Fq>::Params;
    const size_t t = global_thread();
    if (t >= n) return;
    ec::affine_t<Fq> g{gx.to_montgomery(), gy.to_montgomery()};
    const uint64_t k = mix64(t) | 1;
    ec::xyzz_t<Fq> acc = ec::xyzz_t<Fq>::infinity();
    for (int bit = 63; bit >= 0; bit--) {
        acc = acc.dbl();
        if ((k >> bit) & 1u) acc.add_affine(g);
    }
    ec::affine_t<Fq> r{acc.X * invert<Fq, P>(acc.ZZ), acc.Y * invert<Fq, P>(acc.ZZZ)};
    Fq* f = reinterpret_cast<Fq*>(points + t);
    r.x.store(f, 0);
    r.y.store(f, 1);
}

/** The kernels' own throughput probe (curves/instantiate.cuh): two chains of `iters` multiplications a thread. */
template <class Fq>
__global__ void mul_chains(Fq* x, size_t n, uint32_t iters) {
    field_mul_chain(x, n, iters);
}

/** x[i] = x[i]⁻¹ by Fermat or by divsteps (in place: each launch inverts the previous one's output). */
template <class Fq, bool Divsteps>
__global__ void inversions(Fq* x, size_t n) {
    using P = typename Curve<Fq>::Params;
    const size_t i = global_thread();
    if (i >= n) return;
    const Fq r3 = r3_of<Fq, P>();
    invert_with<Fq, P, Divsteps>(Fq::load(x, i), r3).store(x, i);
}

/** mismatches += inputs whose two inversions differ, or whose product with the input is not one (zero excepted). */
template <class Fq>
__global__ void compare_inversions(const Fq* x, size_t n, uint32_t* mismatches) {
    using P = typename Curve<Fq>::Params;
    const size_t i = global_thread();
    if (i >= n) return;
    const Fq a = Fq::load(x, i);
    const Fq fermat = invert<Fq, P>(a), divsteps = invert_divsteps<Fq, P>(a, r3_of<Fq, P>());
    if (!(fermat == divsteps) || (!a.is_zero() && !(a * divsteps == Fq::one()))) atomicAdd(mismatches, 1u);
}

/** The kernels' way: a thread per task, XYZZ += affine (msm/pippenger.cuh, accumulate_tasks). */
template <class Fq>
__global__ void __launch_bounds__(128) accumulate_xyzz(const ec::affine_t<Fq>* points, const uint32_t* pairs,
                                                       size_t tasks, uint32_t m, ec::xyzz_t<Fq>* out) {
    const size_t t = global_thread();
    if (t >= tasks) return;
    ec::xyzz_t<Fq> acc = ec::xyzz_t<Fq>::infinity();
    const uint32_t* p = pairs + t * m;
    for (uint32_t s = 0; s < m; s++) acc.add_affine(ec::affine_t<Fq>::load(points, p[s]));
    acc.store(out, t);
}

/**
 * Batch-affine: thread t owns tasks t·K .. t·K + K − 1 ("lanes") and adds, per step, the next point of every lane.
 * Forward: prefix[j] = Π_{i<j} Δx_i; one inversion of the product; backward: 1/Δx_j = inv·prefix[j], inv ·= Δx_j.
 * Equal x (a doubling or a sum at infinity) does not occur with these points; `collisions` would count it (a
 * production kernel needs a fallback there).
 */
template <class Fq, int K, bool Divsteps>
__global__ void __launch_bounds__(128) accumulate_batch(const ec::affine_t<Fq>* points, const uint32_t* pairs,
                                                        size_t tasks, uint32_t m, ec::affine_t<Fq>* out,
                                                        uint32_t* collisions) {
    using P = typename Curve<Fq>::Params;
    using Affine = ec::affine_t<Fq>;
    const size_t t = global_thread();
    if ((t + 1) * K > tasks) return;
    const Fq r3 = r3_of<Fq, P>();
    Affine acc[K];
    Fq prefix[K];
    const uint32_t* base = pairs + t * K * size_t(m);
#pragma unroll 1
    for (int j = 0; j < K; j++) acc[j] = Affine::load(points, base[size_t(j) * m]);
#pragma unroll 1
    for (uint32_t s = 1; s < m; s++) {
        Fq product = Fq::one();
#pragma unroll 1
        for (int j = 0; j < K; j++) {
            Fq dx = Fq::load(reinterpret_cast<const Fq*>(points + base[size_t(j) * m + s]), 0) - acc[j].x;
            if (dx.is_zero()) {  // counted and left out (its lane's sum goes wrong), so the batch's inverse survives
                atomicAdd(collisions, 1u);
                dx = Fq::one();
            }
            prefix[j] = product;
            product = product * dx;
        }
        Fq inv = invert_with<Fq, P, Divsteps>(product, r3);
#pragma unroll 1
        for (int j = K - 1; j >= 0; j--) {
            const Affine q = Affine::load(points, base[size_t(j) * m + s]);
            const Affine a = acc[j];
            Fq dx = q.x - a.x;
            if (dx.is_zero()) dx = Fq::one();
            const Fq inv_dx = inv * prefix[j];
            inv = inv * dx;
            const Fq lambda = (q.y - a.y) * inv_dx;
            Affine r;
            r.x = lambda.sqr() - a.x - q.x;
            r.y = lambda * (a.x - r.x) - a.y;
            acc[j] = r;
        }
    }
#pragma unroll 1
    for (int j = 0; j < K; j++) {
        Fq* f = reinterpret_cast<Fq*>(out + t * K + j);
        acc[j].x.store(f, 0);
        acc[j].y.store(f, 1);
    }
}

/** mismatches += tasks whose XYZZ sum differs from the affine one. */
template <class Fq>
__global__ void compare(const ec::xyzz_t<Fq>* xyzz, const ec::affine_t<Fq>* affine, size_t tasks,
                        uint32_t* mismatches) {
    const size_t t = global_thread();
    if (t >= tasks) return;
    const ec::xyzz_t<Fq> a = ec::xyzz_t<Fq>::load(xyzz, t);
    const ec::affine_t<Fq> b = ec::affine_t<Fq>::load(affine, t);
    if (a.is_infinity() || !(a.X == b.x * a.ZZ) || !(a.Y == b.y * a.ZZZ)) atomicAdd(mismatches, 1u);
}

static float median(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

template <class F>
static float time_ms(F launch) {
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    std::vector<float> runs;
    for (int r = 0; r < 9; r++) {
        CHECK(cudaEventRecord(a));
        launch();
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        if (r >= 2) runs.push_back(ms);
    }
    CHECK(cudaGetLastError());
    return median(runs);
}

static unsigned blocks(size_t threads, unsigned per) { return unsigned((threads + per - 1) / per); }

template <class Fq, int K, bool Divsteps = false>
static void batch_row(const ec::affine_t<Fq>* points, const uint32_t* pairs, size_t total, uint32_t m,
                      ec::xyzz_t<Fq>* xyzz, ec::affine_t<Fq>* affine, uint32_t* counters, double ns_per_mul) {
    const size_t tasks = total / m;
    const float base = time_ms([&] { accumulate_xyzz<Fq><<<blocks(tasks, 128), 128>>>(points, pairs, tasks, m, xyzz); });
    CHECK(cudaMemset(counters, 0, 2 * sizeof(uint32_t)));
    const float ms = time_ms([&] {
        accumulate_batch<Fq, K, Divsteps><<<blocks(tasks / K, 128), 128>>>(points, pairs, tasks, m, affine,
                                                                          counters + 1);
    });
    compare<Fq><<<blocks(tasks, 256), 256>>>(xyzz, affine, tasks, counters);
    uint32_t c[2];
    CHECK(cudaMemcpy(c, counters, sizeof c, cudaMemcpyDeviceToHost));
    const double adds_base = double(total - tasks), adds_batch = double(total - tasks);  // a task's first point is
                                                                                         // an assignment in both
    const double base_mul = base * 1e6 / adds_base / ns_per_mul, batch_mul = ms * 1e6 / adds_batch / ns_per_mul;
    printf("%-9s  %-6s K=%3d m=%4u threads %7zu | xyzz %8.3f ms (%5.2f mul/add) | batch-affine %8.3f ms (%5.2f"
           " mul/add) | batch/xyzz %.2f | mismatches %u of %zu, equal-x %u\n",
           Curve<Fq>::NAME, Divsteps ? "ds" : "fermat", K, m, tasks / K, base, base_mul, ms, batch_mul, ms / base,
           c[0], tasks, c[1]);
}

template <class Fq>
static void run(size_t n_points, size_t total) {
    using Affine = ec::affine_t<Fq>;
    using Xyzz = ec::xyzz_t<Fq>;
    Fq gx, gy;
    for (int i = 0; i < Fq::N; i++) {
        gx.v[i] = Curve<Fq>::GX[i];
        gy.v[i] = Curve<Fq>::GY[i];
    }
    Affine* points;
    CHECK(cudaMalloc(&points, n_points * sizeof(Affine)));
    make_points<Fq><<<blocks(n_points, 128), 128>>>(points, n_points, gx, gy);
    CHECK(cudaDeviceSynchronize());

    // The rate of one multiplication, and an inversion in multiplications.
    const size_t chains = size_t(132) * 2048;
    const uint32_t iters = 2000;
    Fq* scratch;
    CHECK(cudaMalloc(&scratch, chains * sizeof(Fq)));
    CHECK(cudaMemcpy(scratch, points, chains * sizeof(Fq), cudaMemcpyDeviceToDevice));
    const float mul_ms = time_ms([&] { mul_chains<Fq><<<blocks(chains, 256), 256>>>(scratch, chains, iters); });
    const double ns_per_mul = mul_ms * 1e6 / (2.0 * chains * iters);
    const float fermat_ms = time_ms([&] { inversions<Fq, false><<<blocks(chains, 128), 128>>>(scratch, chains); });
    const float divsteps_ms = time_ms([&] { inversions<Fq, true><<<blocks(chains, 128), 128>>>(scratch, chains); });
    uint32_t* inv_mismatches;
    CHECK(cudaMalloc(&inv_mismatches, sizeof(uint32_t)));
    CHECK(cudaMemset(inv_mismatches, 0, sizeof(uint32_t)));
    compare_inversions<Fq><<<blocks(chains, 128), 128>>>(scratch, chains, inv_mismatches);
    uint32_t inv_bad;
    CHECK(cudaMemcpy(&inv_bad, inv_mismatches, sizeof inv_bad, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(inv_mismatches));
    printf("%-9s  multiplication %.4f ns (%.1f G/s); inversion: Fermat %.1f multiplications, divsteps %.1f"
           " (%d rounds of 30); the two differ on %u of %zu inputs\n",
           Curve<Fq>::NAME, ns_per_mul, 1.0 / ns_per_mul, fermat_ms * 1e6 / chains / ns_per_mul,
           divsteps_ms * 1e6 / chains / ns_per_mul, lab::safegcd<typename Curve<Fq>::Params>::ROUNDS, inv_bad, chains);

    // P pairs: a random permutation of the points, repeated over P / n_points rounds.
    std::vector<uint32_t> host(total);
    std::mt19937 rng(11);
    std::vector<uint32_t> perm(n_points);
    for (size_t i = 0; i < n_points; i++) perm[i] = uint32_t(i);
    for (size_t at = 0; at < total; at += n_points) {
        std::shuffle(perm.begin(), perm.end(), rng);
        std::copy(perm.begin(), perm.begin() + std::min(n_points, total - at), host.begin() + at);
    }
    uint32_t* pairs;
    CHECK(cudaMalloc(&pairs, total * sizeof(uint32_t)));
    CHECK(cudaMemcpy(pairs, host.data(), total * sizeof(uint32_t), cudaMemcpyHostToDevice));
    Xyzz* xyzz;
    Affine* affine;
    uint32_t* counters;
    const size_t max_tasks = total / 8;
    CHECK(cudaMalloc(&xyzz, max_tasks * sizeof(Xyzz)));
    CHECK(cudaMalloc(&affine, max_tasks * sizeof(Affine)));
    CHECK(cudaMalloc(&counters, 2 * sizeof(uint32_t)));

    // The kernels' shape at 2^24 is a task of about 256 points per bucket; a batch of K lanes cuts the thread count
    // by K, so m shrinks as K grows to keep 2^16 threads (about 16 warps per SM), at the price of K× more partial
    // sums to combine afterwards (not timed here: it favors the batch).
    batch_row<Fq, 8>(points, pairs, total, 128, xyzz, affine, counters, ns_per_mul);
    batch_row<Fq, 16>(points, pairs, total, 64, xyzz, affine, counters, ns_per_mul);
    batch_row<Fq, 32>(points, pairs, total, 32, xyzz, affine, counters, ns_per_mul);
    batch_row<Fq, 64>(points, pairs, total, 16, xyzz, affine, counters, ns_per_mul);
    batch_row<Fq, 128>(points, pairs, total, 8, xyzz, affine, counters, ns_per_mul);
    // Fewer threads, longer tasks: the same K at the kernels' task length.
    batch_row<Fq, 32>(points, pairs, total, 256, xyzz, affine, counters, ns_per_mul);
    batch_row<Fq, 128>(points, pairs, total, 64, xyzz, affine, counters, ns_per_mul);
    // A cheaper inversion moves the break-even to smaller K, whose state is smaller.
    batch_row<Fq, 8, true>(points, pairs, total, 128, xyzz, affine, counters, ns_per_mul);
    batch_row<Fq, 16, true>(points, pairs, total, 64, xyzz, affine, counters, ns_per_mul);
    batch_row<Fq, 32, true>(points, pairs, total, 32, xyzz, affine, counters, ns_per_mul);
    batch_row<Fq, 64, true>(points, pairs, total, 16, xyzz, affine, counters, ns_per_mul);
    batch_row<Fq, 16, true>(points, pairs, total, 256, xyzz, affine, counters, ns_per_mul);
    batch_row<Fq, 32, true>(points, pairs, total, 256, xyzz, affine, counters, ns_per_mul);

    CHECK(cudaFree(points));
    CHECK(cudaFree(scratch));
    CHECK(cudaFree(pairs));
    CHECK(cudaFree(xyzz));
    CHECK(cudaFree(affine));
    CHECK(cudaFree(counters));
}

int main(int argc, char** argv) {
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    const size_t total = size_t(1) << (argc > 1 ? atoi(argv[1]) : 26);  // pairs per configuration
    printf("batch-affine lab on %s (%d SMs); %zu pairs per configuration, points 2^22\n", prop.name,
           prop.multiProcessorCount, total);
    run<ff::mont_t<ff::bn254_fq_params>>(size_t(1) << 22, total);
    run<ff::mont_t<ff::bls12_381_fq_params>>(size_t(1) << 22, total);
    return 0;
}
