// The curve-independent kernels: the compile-time tunables, the scans, and the MSM's sort of scalar digits into buckets
// and tasks.
#include "../util/config.cuh"
#include "../util/scan.cuh"
#include "../msm/pippenger.cuh"

/** Writes the compile-time tunables for the host: {version, NTT_MAX_LOG_TILE, ELEMENTWISE_THREADS, SCAN_THREADS,
 *  POINT_THREADS, MSM_MAX_WINDOW_BITS}. */
extern "C" __global__ void proofline_tunables(uint32_t* out) {
    using namespace proofline::config;
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        out[0] = 1;
        out[1] = NTT_MAX_LOG_TILE;
        out[2] = ELEMENTWISE_THREADS;
        out[3] = SCAN_THREADS;
        out[4] = POINT_THREADS;
        out[5] = MSM_MAX_WINDOW_BITS;
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

extern "C" __global__ void __launch_bounds__(proofline::config::ELEMENTWISE_THREADS)
    proofline_msm_histogram(const uint32_t* scalars, size_t n, uint32_t c, uint32_t windows, uint32_t* counts) {
    proofline::msm::histogram(scalars, n, c, windows, counts);
}

extern "C" __global__ void __launch_bounds__(proofline::config::ELEMENTWISE_THREADS)
    proofline_msm_scatter(const uint32_t* scalars, size_t n, uint32_t c, uint32_t windows, uint32_t* cursor,
                          uint32_t* pairs) {
    proofline::msm::scatter(scalars, n, c, windows, cursor, pairs);
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
