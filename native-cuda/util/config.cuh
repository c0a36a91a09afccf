// Compile-time tunables of the kernels. The host reads them at module load through proofline_tunables()
// (modules/common.cu), so the Java launcher never restates a number that lives here.
#pragma once

namespace proofline {
namespace config {

/** log2 of the elements one NTT block transforms in shared memory (2^k elements, 2^(k−2) threads of 4 each). */
constexpr int NTT_MAX_LOG_TILE = 10;
static_assert(NTT_MAX_LOG_TILE >= 2 && NTT_MAX_LOG_TILE <= 10,
              "an NTT tile needs 2^(k-2) threads of 4 elements and 2^k·32 B <= 48 KiB of static shared memory");

/** Threads per block of the element-wise kernels (field ops, scaling, h = a·b − c). */
constexpr int ELEMENTWISE_THREADS = 256;
static_assert(ELEMENTWISE_THREADS % 32 == 0 && ELEMENTWISE_THREADS <= 1024, "block size must be whole warps");

/** Threads per block of the exclusive scan (one element per thread; CUB BlockScan). */
constexpr int SCAN_THREADS = 1024;
static_assert(SCAN_THREADS % 32 == 0 && SCAN_THREADS <= 1024, "block size must be whole warps");

/** Threads per block of the point kernels (bucket accumulation, reductions): XYZZ points hold many registers. */
constexpr int POINT_THREADS = 128;
static_assert(POINT_THREADS % 32 == 0 && POINT_THREADS <= 1024, "block size must be whole warps");

/** Threads per block of the MSM's radix sort of digits; one tile is SORT_THREADS · SORT_ITEMS keys, ranked in shared
 *  memory (msm/bucket_sort.cuh). 256 threads: one per 8-bit digit when a tile's digit counts are scanned. */
constexpr int SORT_THREADS = 256;
constexpr int SORT_ITEMS = 16;
static_assert(SORT_THREADS == 256, "the sort scans a tile's 256 digit counts one per thread");

/** Widest Pippenger window: a window has 2^(c−1) buckets, and the sort ranks a window's bucket as a 16-bit key
 *  (msm/bucket_sort.cuh). Wider windows lost to their sort when they were measured (docs/lab/gpu-variants.md, 11).
 *  The host checks settings against it before any module is loaded, so MsmShape.MAX_WINDOW restates it (MsmShapeTest
 *  fails when they differ). */
constexpr int MSM_MAX_WINDOW_BITS = 17;

}  // namespace config
}  // namespace proofline
