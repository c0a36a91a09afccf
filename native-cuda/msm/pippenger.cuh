// Pippenger's bucket method for Σ sᵢ·Pᵢ over G1 and G2, with signed-digit windows sorted into buckets.
//
// Scalars are canonical 256-bit little-endian integers (8 words), below r < 2^255. With window width c, a
// scalar is written Σ_w d_w·2^(c·w) with d_w ∈ [−2^(c−1), 2^(c−1)] (a digit above 2^(c−1) becomes d − 2^c and
// carries one into the next window). W = ⌈(b + 1)/c⌉ windows suffice for scalars below 2^b (b = 254 for BN254, 255
// for BLS12-381; MsmShape.windows): the top window holds at most c − 1 of the scalar's bits, so with the carry its
// digit is at most 2^(c−1) and no carry leaves it. Bucket key = w·2^(c−1) + |d| − 1; the sign rides on the pair's
// value as bit 31 (so n < 2^31).
//
// Stages (one kernel each, launched by the host in this order):
//   the sort    the (bucket, point) pairs in bucket order, with each bucket's offset and count: a radix sort of
//               each window's digits (bucket_sort.cuh; scalars 0 and 1 have no digits)
//   task_counts, (scan), task_map
//               the buckets cut into tasks of at most per_task pairs: one per bucket as long as the bucket has at
//               most per_task pairs (every bucket when the scalars are uniform), several for larger ones
//   task_size_histogram, (scan), task_size_scatter
//               the tasks ordered by size, largest first, so that the 32 threads of a warp add about as many
//               points each and none waits for the warp's largest bucket
//   accumulate_tasks
//               a thread per task (XYZZ += affine, madd-2008-s); a bucket of one task is stored, the tasks of a
//               larger bucket store partial sums keyed by the bucket
//   combine_heads (levels 1, 2, ... until one chunk holds a level)
//               the partials in chunks: a bucket's partials are consecutive, so the run that starts in a chunk is
//               added to its bucket and the run continued from the previous chunk is passed up a level
//   reduce_level (the bucket reduction, levels until one entry per window)
//               per window, runs of L entries: T' = Σ k·S_k by a running sum from the top and S' = L·Σ S_k, so
//               that Σ_j j·S_j = Σ_m T'_m + Σ_m m·S'_m — the same problem L times smaller, solved by the next
//               level; the weighted parts T' ride along in U
//   sum_groups  adds consecutive groups of points (the partial sums of the ones)
//   ones        partial sums of the points whose scalar is exactly 1 (witness 0/1 values skip Pippenger)
// and the host finishes with Horner over the windows, Σ_w 2^(c·w)·window_w, plus the ones (XyzzHorner.java:
// a chain of ~240 dependent doublings runs faster on a CPU core than on one GPU thread).
#pragma once
#include <cstdint>
#include "../util/config.cuh"
#include "../util/index.cuh"

namespace proofline {
namespace msm {

constexpr int SCALAR_WORDS = 8;
constexpr uint32_t SIGN_BIT = 0x80000000u;
/** A partial-sum slot without a partial (its task is its bucket's only one, or its chunk began a bucket's run). */
constexpr uint32_t NO_KEY = 0xffffffffu;

struct scalar_words {
    uint32_t w[SCALAR_WORDS];

    __device__ __forceinline__ static scalar_words load(const uint32_t* scalars, size_t i) {
        const uint4* src = reinterpret_cast<const uint4*>(scalars + i * SCALAR_WORDS);
        uint4 a = src[0], b = src[1];
        return scalar_words{{a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w}};
    }

    __device__ __forceinline__ bool is_zero_or_one() const {
        uint32_t upper = w[1] | w[2] | w[3] | w[4] | w[5] | w[6] | w[7];
        return upper == 0 && w[0] <= 1;
    }

    __device__ __forceinline__ bool is_one() const {
        uint32_t upper = w[1] | w[2] | w[3] | w[4] | w[5] | w[6] | w[7];
        return upper == 0 && w[0] == 1;
    }

    /** Bits [lo, lo + c) as an integer (c ≤ 31); bits past 255 read as zero. */
    __device__ __forceinline__ uint32_t bits(uint32_t lo, uint32_t c) const {
        const uint32_t word = lo >> 5, shift = lo & 31;
        uint32_t v = 0;
#pragma unroll
        for (int k = 0; k < SCALAR_WORDS; k++) {  // select without a run-time array index (no local memory)
            if (k == int(word)) v = w[k] >> shift;
            if (k == int(word) + 1 && shift != 0) v |= w[k] << (32 - shift);
        }
        return v & ((1u << c) - 1);
    }
};

/** The number of sorted pairs: the end of the last bucket (read on the device, so the host never waits). */
__device__ __forceinline__ uint32_t pair_total(const uint32_t* offsets, const uint32_t* counts, uint32_t buckets) {
    return offsets[buckets - 1] + counts[buckets - 1];
}

/** task_counts[b] = ⌈counts[b] / per_task⌉: bucket b's pairs in tasks of at most per_task (0 for an empty bucket). */
__device__ __forceinline__ void task_counts(const uint32_t* counts, uint32_t buckets, uint32_t per_task,
                                            uint32_t* task_counts) {
    const size_t b = global_thread();
    if (b < buckets) task_counts[b] = (counts[b] + per_task - 1) / per_task;
}

/** task_bucket[task_offsets[b] + j] = b for each of bucket b's tasks j (one thread per bucket). */
__device__ __forceinline__ void task_map(const uint32_t* task_offsets, const uint32_t* task_counts, uint32_t buckets,
                                         uint32_t* task_bucket) {
    const size_t b = global_thread();
    if (b >= buckets) return;
    const uint32_t first = task_offsets[b], n = task_counts[b];
    for (uint32_t j = 0; j < n; j++) task_bucket[first + j] = uint32_t(b);
}

/** The pairs [begin, end) of task i (bucket b's j-th run of at most per_task pairs). */
struct task_range {
    uint32_t bucket, begin, end;

    __device__ __forceinline__ static task_range of(uint32_t i, const uint32_t* offsets, const uint32_t* counts,
                                                    const uint32_t* task_offsets, const uint32_t* task_bucket,
                                                    uint32_t per_task) {
        const uint32_t b = task_bucket[i];
        const uint32_t bucket_end = offsets[b] + counts[b];
        const uint32_t begin = offsets[b] + (i - task_offsets[b]) * per_task;
        return task_range{b, begin, begin + per_task < bucket_end ? begin + per_task : bucket_end};
    }
};

/** Most pairs a task may hold when tasks are ordered by size (one shared-memory counter per size). */
constexpr uint32_t MAX_ORDERED_PER_TASK = 1024;

/**
 * size_counts[per_task − size] += number of tasks of that size (sizes 1..per_task, so bin 0 holds the largest).
 * Counted per block in shared memory first: a few hundred thousand tasks fall into a few dozen sizes, and global
 * atomics on so few addresses would serialize.
 */
__device__ __forceinline__ void task_size_histogram(const uint32_t* offsets, const uint32_t* counts,
                                                    const uint32_t* task_offsets, const uint32_t* task_counts,
                                                    const uint32_t* task_bucket, uint32_t buckets, uint32_t per_task,
                                                    uint32_t* size_counts) {
    __shared__ uint32_t local[MAX_ORDERED_PER_TASK];
    for (uint32_t k = threadIdx.x; k < per_task; k += blockDim.x) local[k] = 0;
    __syncthreads();
    const size_t i = global_thread();
    if (i < pair_total(task_offsets, task_counts, buckets)) {
        const task_range r = task_range::of(uint32_t(i), offsets, counts, task_offsets, task_bucket, per_task);
        atomicAdd(local + (per_task - (r.end - r.begin)), 1u);
    }
    __syncthreads();
    for (uint32_t k = threadIdx.x; k < per_task; k += blockDim.x) {
        if (local[k] != 0) atomicAdd(size_counts + k, local[k]);
    }
}

/**
 * task_order[size_cursor[bin] + rank] = i, where bin = per_task − size of task i: the tasks sorted by size, largest
 * first (size_cursor starts as the exclusive scan of size_counts). A block ranks its tasks in shared memory and then
 * takes one range per size with a single global atomic.
 */
__device__ __forceinline__ void task_size_scatter(const uint32_t* offsets, const uint32_t* counts,
                                                  const uint32_t* task_offsets, const uint32_t* task_counts,
                                                  const uint32_t* task_bucket, uint32_t buckets, uint32_t per_task,
                                                  uint32_t* size_cursor, uint32_t* task_order) {
    __shared__ uint32_t local[MAX_ORDERED_PER_TASK];
    for (uint32_t k = threadIdx.x; k < per_task; k += blockDim.x) local[k] = 0;
    __syncthreads();
    const size_t i = global_thread();
    const bool valid = i < pair_total(task_offsets, task_counts, buckets);
    uint32_t bin = 0, rank = 0;
    if (valid) {
        const task_range r = task_range::of(uint32_t(i), offsets, counts, task_offsets, task_bucket, per_task);
        bin = per_task - (r.end - r.begin);
        rank = atomicAdd(local + bin, 1u);
    }
    __syncthreads();
    for (uint32_t k = threadIdx.x; k < per_task; k += blockDim.x) {
        if (local[k] != 0) local[k] = atomicAdd(size_cursor + k, local[k]);  // the block's base for size k
    }
    __syncthreads();
    if (valid) task_order[local[bin] + rank] = uint32_t(i);
}

/**
 * Level 0 of the bucket sums, by tasks: thread t takes task task_order[t] (the tasks by size, largest first) and adds
 * its at most per_task pairs of one bucket. A bucket of one task (all of them when the scalars are uniform) is stored
 * as is; the tasks of a larger bucket store partial sums, keyed by the bucket, which combine_heads adds into the
 * bucket (zeroed by the host) level by level.
 */
template <class Affine, class Xyzz>
__device__ __forceinline__ void accumulate_tasks(const Affine* points, const uint32_t* pairs, const uint32_t* offsets,
                                                 const uint32_t* counts, const uint32_t* task_offsets,
                                                 const uint32_t* task_counts, const uint32_t* task_bucket,
                                                 const uint32_t* task_order, uint32_t buckets, uint32_t per_task,
                                                 Xyzz* bucket_sums, Xyzz* partials, uint32_t* partial_keys) {
    const size_t tasks = pair_total(task_offsets, task_counts, buckets);
    const size_t t = global_thread();
    if (t >= tasks) return;
    const uint32_t i = task_order[t];
    const task_range r = task_range::of(i, offsets, counts, task_offsets, task_bucket, per_task);
    const uint32_t b = r.bucket;
    Xyzz acc = Xyzz::infinity();
    for (uint32_t at = r.begin; at < r.end; at++) {
        const uint32_t pair = pairs[at];
        Affine p = Affine::load(points, pair & ~SIGN_BIT);
        if ((pair & SIGN_BIT) && !p.is_infinity()) p.y = p.y.neg();
        acc.add_affine(p);
    }
    if (task_counts[b] == 1) {
        acc.store(bucket_sums, b);
        partial_keys[i] = NO_KEY;
    } else {
        acc.store(partials, i);
        partial_keys[i] = b;
    }
}

/**
 * Level ℓ ≥ 1: the ⌈tasks/span⌉ partials of level ℓ−1 (span = chunk^(ℓ−1); the task total is read from
 * task_offsets and task_counts), in chunks. A key's partials are consecutive (its tasks were), with NO_KEY slots only
 * between keys, so the run that starts in the chunk is added to its bucket — by this thread alone, as no other run of
 * that key starts at this level — and a run continued from the previous chunk is passed up as this chunk's head.
 */
template <class Xyzz>
__device__ __forceinline__ void combine_heads(const Xyzz* in_sums, const uint32_t* in_keys, const uint32_t* offsets,
                                              const uint32_t* counts, uint32_t buckets, uint64_t span,
                                              uint32_t chunk, Xyzz* bucket_sums, Xyzz* out_sums,
                                              uint32_t* out_keys) {
    const size_t count = (pair_total(offsets, counts, buckets) + span - 1) / span;
    const size_t t = global_thread();
    size_t at = t * chunk;
    if (at >= count) return;
    const size_t end = at + chunk < count ? at + chunk : count;
    out_keys[t] = NO_KEY;
    while (at < end && in_keys[at] == NO_KEY) at++;
    if (at >= end) return;
    uint32_t key = in_keys[at];
    bool head = at > 0 && in_keys[at - 1] == key;
    Xyzz acc = Xyzz::infinity();
    while (true) {
        acc.add(Xyzz::load(in_sums, at));
        const uint32_t next = ++at < end ? in_keys[at] : NO_KEY;
        if (next == key) continue;
        if (head) {
            acc.store(out_sums, t);
            out_keys[t] = key;
            head = false;
        } else {
            Xyzz bucket = Xyzz::load(bucket_sums, key);
            bucket.add(acc);
            bucket.store(bucket_sums, key);
        }
        while (at < end && in_keys[at] == NO_KEY) at++;
        if (at >= end) return;
        key = in_keys[at];
        acc = Xyzz::infinity();
    }
}

/**
 * One level of the bucket reduction R_w = Σ_v v·B_v of every window. Each window has `entries` entries S_e (level 1:
 * the buckets, B_v at e = v − 1; a power of two) and, above level 1, entries U_e with R_w = Σ_e U_e + Σ_e weight(e)·S_e,
 * where weight(e) = e + 1 on the first level (bucket values) and e above it. Thread (w, m) takes the run
 * e = m·len + k, k < len, and writes U'_m = Σ_k U_e + Σ_k weight(k)·S_e and S'_m = len·Σ_k S_e: since weight(e) =
 * weight(k) + m·len, that leaves R_w = Σ_m U'_m + Σ_m m·S'_m, the next level's problem, len times smaller. With one
 * entry left per window, R_w = U'_0. Σ_k weight(k)·S_e is a running sum from the top (len − 1 or len additions) and
 * S' is scaled by log2(len) doublings here, so no level multiplies by a growing factor: the upper levels run on few
 * threads and are latency-bound, every serial operation counts. The first level has no U (u_in unused).
 */
template <class Xyzz>
__device__ __forceinline__ void reduce_level(const Xyzz* s_in, const Xyzz* u_in, uint32_t windows, uint32_t entries,
                                             uint32_t len, uint32_t first, Xyzz* s_out, Xyzz* u_out) {
    const uint32_t runs = entries / len;
    const size_t id = global_thread();
    if (id >= size_t(windows) * runs) return;
    const size_t base = (id / runs) * entries + (id % runs) * len;
    Xyzz running = Xyzz::infinity(), weighted = Xyzz::infinity();
    for (int k = int(len) - 1; k >= 0; k--) {
        running.add(Xyzz::load(s_in, base + k));
        if (first || k > 0) weighted.add(running);
    }
    if (!first) {
        for (uint32_t k = 0; k < len; k++) weighted.add(Xyzz::load(u_in, base + k));
    }
    weighted.store(u_out, id);
    if (runs > 1) {  // the last level's S' has weight 0
        for (uint32_t d = 1; d < len; d <<= 1) running = running.dbl();
        running.store(s_out, id);
    }
}

/** out[g] = Σ in[g·group .. g·group + group) (clipped at count). */
template <class Xyzz>
__device__ __forceinline__ void sum_groups(const Xyzz* in, size_t count, uint32_t group, Xyzz* out) {
    const size_t g = global_thread();
    const size_t begin = g * group;
    if (begin >= count) return;
    const size_t end = begin + group < count ? begin + group : count;
    Xyzz acc = Xyzz::infinity();
    for (size_t i = begin; i < end; i++) acc.add(Xyzz::load(in, i));
    acc.store(out, g);
}

/** out[t] = Σ of the points in [t·per_thread, (t+1)·per_thread) whose scalar is exactly 1. */
template <class Affine, class Xyzz>
__device__ __forceinline__ void ones(const Affine* points, const uint32_t* scalars, size_t n, uint32_t per_thread,
                                     Xyzz* out) {
    const size_t t = global_thread();
    const size_t begin = t * per_thread;
    if (begin >= n) return;
    const size_t end = begin + per_thread < n ? begin + per_thread : n;
    Xyzz acc = Xyzz::infinity();
    for (size_t i = begin; i < end; i++) {
        if (scalar_words::load(scalars, i).is_one()) acc.add_affine(Affine::load(points, i));
    }
    acc.store(out, t);
}

}  // namespace msm
}  // namespace proofline
