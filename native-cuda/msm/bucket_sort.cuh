// The MSM's sort of (bucket, point) pairs into bucket order: a least-significant-digit radix sort of each window's
// digits, 8 bits a pass, with the ranking done in shared memory.
//
// Why not a counting sort: scattering each of n·W pairs straight to its bucket's cursor costs one global atomic and
// one scattered 4-byte write (a 32-byte sector) per pair, twice over with the histogram, and at 2^24 that was a
// quarter of the MSM. Here every global access is a run: a tile of SORT_THREADS · SORT_ITEMS keys is ranked by
// CUB's block radix sort in shared memory, and its pairs of one digit land as one run at the place the scan of
// all tiles' digit counts gives them. Keys are a window's bucket |d| − 1 < 2^(c−1): 16 bits for c ≤ 17
// (MSM_MAX_WINDOW_BITS), two passes.
//
// Kernels, launched by the host (MsmSchedule) in this order:
//   digits        each window's non-zero digits (scalars 0 and 1 skipped) as key |d| − 1 and value point | sign,
//                 compacted per block into the window's region [w·n, w·n + fill[w]) (the order inside a region does
//                 not matter: a bucket's sum does not depend on the order of its points)
//   then per pass of 8 bits (bits [bit, bit + bits)):
//     count       hist[w][digit][tile]: each tile's digit counts
//     (exclusive scan of hist: the place of each (window, digit, tile) run in the dense output, windows in order)
//     scatter     each tile sorted by the digit in shared memory (stable) and its runs written where the scan says:
//                 into the window's region w·n + … for a middle pass, densely (all windows one after the other) for
//                 the last, whose output is the pairs in bucket order
//   bounds        begin[bucket] and end[bucket] of every non-empty bucket, where the sorted keys change
//   bucket_counts counts = end − begin (both zeroed first, so an empty bucket counts 0)
// A stable pass per digit from the lowest up leaves the keys sorted, as in any LSD radix sort.
#pragma once
#include <cstdint>
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>
#include "../util/config.cuh"
#include "../util/index.cuh"
#include "pippenger.cuh"

namespace proofline {
namespace msm {
namespace bucket_sort {

/** A window's bucket |d| − 1: below 2^(c−1) ≤ 2^16. */
using bucket_key = uint16_t;
static_assert(config::MSM_MAX_WINDOW_BITS - 1 <= 16, "a window's bucket must fit the sort's 16-bit keys");
constexpr bucket_key PAST_END = 0xffff;

constexpr uint32_t RADIX_BITS = 8;
constexpr uint32_t RADIX = 1u << RADIX_BITS;
constexpr uint32_t THREADS = config::SORT_THREADS;
constexpr uint32_t ITEMS = config::SORT_ITEMS;
constexpr uint32_t TILE = THREADS * ITEMS;
static_assert(THREADS == RADIX, "a tile's digit counts are scanned one digit per thread");

/** Window w's non-zero digits into keys/values [w·n, w·n + fill[w]); launch ⌈n / THREADS⌉ blocks of THREADS. */
__device__ __forceinline__ void digits(const uint32_t* scalars, size_t n, uint32_t c, uint32_t windows,
                                       uint32_t* fill, bucket_key* keys, uint32_t* values) {
    using block_scan = cub::BlockScan<uint32_t, THREADS>;
    __shared__ typename block_scan::TempStorage temp;
    __shared__ uint32_t base;
    const size_t i = global_thread();
    scalar_words s{};
    bool live = false;
    if (i < n) {
        s = scalar_words::load(scalars, i);
        live = !s.is_zero_or_one();
    }
    const uint32_t half = 1u << (c - 1);
    uint32_t carry = 0;
    for (uint32_t w = 0; w < windows; w++) {  // every thread runs every window: the scan needs the whole block
        uint32_t flag = 0, key = 0, value = 0;
        if (live) {
            const uint32_t raw = s.bits(w * c, c) + carry;  // ≤ 2^c
            carry = raw > half ? 1u : 0u;
            const int32_t d = carry ? int32_t(raw) - int32_t(1u << c) : int32_t(raw);
            if (d != 0) {
                flag = 1;
                key = (d < 0 ? uint32_t(-d) : uint32_t(d)) - 1;
                value = uint32_t(i) | (d < 0 ? SIGN_BIT : 0u);
            }
        }
        uint32_t rank, total;
        block_scan(temp).ExclusiveSum(flag, rank, total);
        if (threadIdx.x == 0 && total != 0) base = atomicAdd(fill + w, total);
        __syncthreads();
        if (flag) {
            const size_t at = size_t(w) * n + base + rank;
            keys[at] = bucket_key(key);
            values[at] = value;
        }
        __syncthreads();  // base and temp are rewritten for the next window
    }
}

/** The tile of block b: window b / tiles, tile b mod tiles, and its first index inside the window. */
struct tile_of_block {
    uint32_t window, tile;
    size_t begin;

    __device__ __forceinline__ static tile_of_block of(uint32_t tiles) {
        const uint32_t w = blockIdx.x / tiles, t = blockIdx.x % tiles;
        return tile_of_block{w, t, size_t(t) * TILE};
    }

    /** Index of (digit, this tile) in hist[window][digit][tile]. */
    __device__ __forceinline__ size_t hist_index(uint32_t digit, uint32_t tiles) const {
        return (size_t(window) * RADIX + digit) * tiles + tile;
    }
};

/** hist[w][digit][tile]: how many keys of the tile have bits [bit, bit + 8) equal to digit. Blocks: windows · tiles. */
__device__ __forceinline__ void count(const bucket_key* keys, size_t n, const uint32_t* fill, uint32_t tiles,
                                      uint32_t bit, uint32_t* hist) {
    __shared__ uint32_t local[RADIX];
    const tile_of_block b = tile_of_block::of(tiles);
    local[threadIdx.x] = 0;
    __syncthreads();
    const size_t filled = fill[b.window];
    const size_t end = b.begin + TILE < filled ? b.begin + TILE : filled;
    const bucket_key* in = keys + size_t(b.window) * n;
    for (size_t at = b.begin + threadIdx.x; at < end; at += THREADS) {
        atomicAdd(local + ((in[at] >> bit) & (RADIX - 1)), 1u);
    }
    __syncthreads();
    hist[b.hist_index(threadIdx.x, tiles)] = local[threadIdx.x];
}

/**
 * One stable pass over bits [bit, bit + bits): the tile's pairs sorted by that digit in shared memory, then each
 * digit's run written at its place from the scanned hist — inside the window's region w·n for a middle pass, at the
 * scanned place itself (dense, windows in order) for the last pass. Blocks: windows · tiles.
 */
__device__ __forceinline__ void scatter(const bucket_key* keys_in, const uint32_t* values_in, size_t n,
                                        const uint32_t* fill, uint32_t tiles, uint32_t bit, uint32_t bits,
                                        const uint32_t* hist_scan, bool last, bucket_key* keys_out,
                                        uint32_t* values_out) {
    using key_load = cub::BlockLoad<bucket_key, THREADS, ITEMS, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using value_load = cub::BlockLoad<uint32_t, THREADS, ITEMS, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using block_sort = cub::BlockRadixSort<bucket_key, THREADS, ITEMS, uint32_t>;
    using block_scan = cub::BlockScan<uint32_t, THREADS>;
    __shared__ union {
        typename key_load::TempStorage key_load;
        typename value_load::TempStorage value_load;
        typename block_sort::TempStorage sort;
        typename block_scan::TempStorage scan;
    } temp;
    __shared__ uint32_t local[RADIX];  // the tile's count per digit, then the place of its first pair minus its rank
    const tile_of_block b = tile_of_block::of(tiles);
    const size_t filled = fill[b.window];
    if (b.begin >= filled) return;  // the whole block leaves together
    const int valid = int(filled - b.begin < TILE ? filled - b.begin : TILE);
    const size_t region = size_t(b.window) * n + b.begin;
    bucket_key key[ITEMS];
    uint32_t value[ITEMS];
    // Past the end, keys of all ones: they rank after every valid key of the last digit (the sort is stable and
    // they come last), so the first `valid` ranks are the tile's own pairs.
    key_load(temp.key_load).Load(keys_in + region, key, valid, PAST_END);
    __syncthreads();
    value_load(temp.value_load).Load(values_in + region, value, valid, 0u);
    local[threadIdx.x] = 0;
    __syncthreads();
#pragma unroll
    for (uint32_t j = 0; j < ITEMS; j++) {
        if (int(threadIdx.x * ITEMS + j) < valid) atomicAdd(local + ((key[j] >> bit) & (RADIX - 1)), 1u);
    }
    __syncthreads();
    uint32_t first;  // the tile's rank of the first pair of digit threadIdx.x
    block_scan(temp.scan).ExclusiveSum(local[threadIdx.x], first);
    const size_t place = hist_scan[b.hist_index(threadIdx.x, tiles)];
    const size_t window_place = hist_scan[tile_of_block{b.window, 0, 0}.hist_index(0, tiles)];
    const size_t to = last ? place : size_t(b.window) * n + (place - window_place);
    __syncthreads();  // temp.scan is done and every thread has read its count before local is rewritten
    local[threadIdx.x] = uint32_t(to - first);  // < 2^32: outputs hold n · windows < 2^32 pairs
    block_sort(temp.sort).SortBlockedToStriped(key, value, int(bit), int(bit + bits));
    __syncthreads();
#pragma unroll
    for (uint32_t j = 0; j < ITEMS; j++) {
        const uint32_t rank = j * THREADS + threadIdx.x;
        if (int(rank) < valid) {
            const size_t at = size_t(local[(key[j] >> bit) & (RADIX - 1)]) + rank;
            keys_out[at] = key[j];
            values_out[at] = value[j];
        }
    }
}

/**
 * begin[w·2^(c−1) + key] and end[…] of each non-empty bucket, from the sorted keys of the last pass (dense: window w
 * starts after fill[0] + … + fill[w−1]). Blocks: windows · tiles.
 */
__device__ __forceinline__ void bounds(const bucket_key* keys, const uint32_t* fill, uint32_t tiles, uint32_t half,
                                       uint32_t* begin, uint32_t* end) {
    __shared__ size_t start;
    const tile_of_block b = tile_of_block::of(tiles);
    if (threadIdx.x == 0) {
        size_t s = 0;
        for (uint32_t w = 0; w < b.window; w++) s += fill[w];
        start = s;
    }
    __syncthreads();
    const size_t filled = fill[b.window];
    const size_t stop = b.begin + TILE < filled ? b.begin + TILE : filled;
    for (size_t i = b.begin + threadIdx.x; i < stop; i += THREADS) {
        const size_t at = start + i;
        const bucket_key key = keys[at];
        const uint32_t bucket = b.window * half + key;
        if (i == 0 || keys[at - 1] != key) begin[bucket] = uint32_t(at);
        if (i + 1 == filled || keys[at + 1] != key) end[bucket] = uint32_t(at + 1);
    }
}

/** counts[k] = end[k] − begin[k]: 0 for an empty bucket, as both were zeroed. */
__device__ __forceinline__ void bucket_counts(const uint32_t* begin, const uint32_t* end, uint32_t buckets,
                                              uint32_t* counts) {
    const size_t k = global_thread();
    if (k < buckets) counts[k] = end[k] - begin[k];
}

}  // namespace bucket_sort
}  // namespace msm
}  // namespace proofline
