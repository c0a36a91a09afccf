// Exclusive prefix sum of 32-bit counts in three launches: per-block scans, a scan of the block totals by
// one block, and the addition of each block's offset. Used to turn bucket counts into bucket offsets.
#pragma once
#include <cstdint>
#include <cub/block/block_scan.cuh>
#include "config.cuh"
#include "index.cuh"

namespace proofline {
namespace scan {

using block_scan = cub::BlockScan<uint32_t, config::SCAN_THREADS>;

/** out[i] = Σ in[j] for j < i within the block; block_totals[b] = the block's sum. */
__device__ __forceinline__ void blocks(const uint32_t* in, uint32_t* out, uint32_t* block_totals, size_t n) {
    __shared__ typename block_scan::TempStorage temp;
    const size_t i = global_thread();
    uint32_t v = i < n ? in[i] : 0u, total;
    block_scan(temp).ExclusiveSum(v, v, total);
    if (i < n) out[i] = v;
    if (threadIdx.x == 0) block_totals[blockIdx.x] = total;
}

/** One block: exclusive scan of the block totals in place, chunk by chunk with a running carry. */
__device__ __forceinline__ void totals(uint32_t* block_totals, uint32_t count) {
    __shared__ typename block_scan::TempStorage temp;
    __shared__ uint32_t carry;
    if (threadIdx.x == 0) carry = 0;
    __syncthreads();
    for (uint32_t base = 0; base < count; base += config::SCAN_THREADS) {
        const uint32_t i = base + threadIdx.x;
        uint32_t v = i < count ? block_totals[i] : 0u, total;
        block_scan(temp).ExclusiveSum(v, v, total);
        if (i < count) block_totals[i] = v + carry;
        __syncthreads();
        if (threadIdx.x == 0) carry += total;
        __syncthreads();
    }
}

__device__ __forceinline__ void add_offsets(uint32_t* out, const uint32_t* block_totals, size_t n) {
    const size_t i = global_thread();
    if (i < n) out[i] += block_totals[blockIdx.x];
}

}  // namespace scan
}  // namespace proofline
