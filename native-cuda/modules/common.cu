// The curve-independent kernels: the compile-time tunables, the scans, and the MSM's sort of scalar digits into buckets
// and tasks.
#include "../util/config.cuh"
#include "../util/scan.cuh"
#include "../msm/pippenger.cuh"
#include "../msm/bucket_sort.cuh"

/** Writes the compile-time tunables for the host: {version, NTT_MAX_LOG_TILE, ELEMENTWISE_THREADS, SCAN_THREADS,
 *  POINT_THREADS, MSM_MAX_WINDOW_BITS, SORT_THREADS, SORT_ITEMS}. */
extern "C" __global__ void proofline_tunables(uint32_t* out) {
    using namespace proofline::config;
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        out[0] = 2;
        out[1] = NTT_MAX_LOG_TILE;
        out[2] = ELEMENTWISE_THREADS;
        out[3] = SCAN_THREADS;
        out[4] = POINT_THREADS;
        out[5] = MSM_MAX_WINDOW_BITS;
        out[6] = SORT_THREADS;
        out[7] = SORT_ITEMS;
    }
}

extern "C" __global__ void __launch_bounds__(proofline::config::SCAN_THREADS)
    proofline_scan_blocks(const uint32_t* in, uint32_t* out, uint32_t* block_totals, size_t n) {
    proofline::scan::blocks(in, out, block_totals, n);
}

extern "C" __global__ void __launch_bounds__(proofline::config::SCAN_THREADS)
    proofline_scan_totals(uint32_t* block_totals, uint32_t count) {
    proofline::scan::totals(block_totals, count);
}

extern "C" __global__ void __launch_bounds__(proofline::config::SCAN_THREADS)
    proofline_scan_add(uint32_t* out, const uint32_t* block_totals, size_t n) {
    proofline::scan::add_offsets(out, block_totals, n);
}

extern "C" __global__ void __launch_bounds__(proofline::config::SORT_THREADS)
    proofline_msm_digits(const uint32_t* scalars, size_t n, uint32_t c, uint32_t windows, uint32_t* fill,
                         uint16_t* keys, uint32_t* values) {
    proofline::msm::bucket_sort::digits(scalars, n, c, windows, fill, keys, values);
}

extern "C" __global__ void __launch_bounds__(proofline::config::SORT_THREADS)
    proofline_msm_sort_count(const uint16_t* keys, size_t n, const uint32_t* fill, uint32_t tiles, uint32_t bit,
                             uint32_t* hist) {
    proofline::msm::bucket_sort::count(keys, n, fill, tiles, bit, hist);
}

extern "C" __global__ void __launch_bounds__(proofline::config::SORT_THREADS)
    proofline_msm_sort_scatter(const uint16_t* keys_in, const uint32_t* values_in, size_t n, const uint32_t* fill,
                               uint32_t tiles, uint32_t bit, uint32_t bits, const uint32_t* hist_scan, uint32_t last,
                               uint16_t* keys_out, uint32_t* values_out) {
    proofline::msm::bucket_sort::scatter(keys_in, values_in, n, fill, tiles, bit, bits, hist_scan, last != 0, keys_out,
                                         values_out);
}

extern "C" __global__ void __launch_bounds__(proofline::config::SORT_THREADS)
    proofline_msm_bucket_bounds(const uint16_t* keys, const uint32_t* fill, uint32_t tiles, uint32_t half,
                                uint32_t* begin, uint32_t* end) {
    proofline::msm::bucket_sort::bounds(keys, fill, tiles, half, begin, end);
}

extern "C" __global__ void __launch_bounds__(proofline::config::ELEMENTWISE_THREADS)
    proofline_msm_bucket_counts(const uint32_t* begin, const uint32_t* end, uint32_t buckets, uint32_t* counts) {
    proofline::msm::bucket_sort::bucket_counts(begin, end, buckets, counts);
}

extern "C" __global__ void __launch_bounds__(proofline::config::ELEMENTWISE_THREADS)
    proofline_msm_task_counts(const uint32_t* counts, uint32_t buckets, uint32_t per_task, uint32_t* task_counts) {
    proofline::msm::task_counts(counts, buckets, per_task, task_counts);
}

extern "C" __global__ void __launch_bounds__(proofline::config::ELEMENTWISE_THREADS)
    proofline_msm_task_map(const uint32_t* task_offsets, const uint32_t* task_counts, uint32_t buckets,
                           uint32_t* task_bucket) {
    proofline::msm::task_map(task_offsets, task_counts, buckets, task_bucket);
}

extern "C" __global__ void __launch_bounds__(proofline::config::ELEMENTWISE_THREADS)
    proofline_msm_task_size_histogram(const uint32_t* offsets, const uint32_t* counts, const uint32_t* task_offsets,
                                      const uint32_t* task_counts, const uint32_t* task_bucket, uint32_t buckets,
                                      uint32_t per_task, uint32_t* size_counts) {
    proofline::msm::task_size_histogram(offsets, counts, task_offsets, task_counts, task_bucket, buckets, per_task,
                                        size_counts);
}

extern "C" __global__ void __launch_bounds__(proofline::config::ELEMENTWISE_THREADS)
    proofline_msm_task_size_scatter(const uint32_t* offsets, const uint32_t* counts, const uint32_t* task_offsets,
                                    const uint32_t* task_counts, const uint32_t* task_bucket, uint32_t buckets,
                                    uint32_t per_task, uint32_t* size_cursor, uint32_t* task_order) {
    proofline::msm::task_size_scatter(offsets, counts, task_offsets, task_counts, task_bucket, buckets, per_task,
                                      size_cursor, task_order);
}
