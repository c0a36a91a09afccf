#pragma once
#include <cstdint>

namespace proofline {

/** The global thread index of a 1-D launch, as 64 bits (n may exceed 2^31 elements' worth of bytes). */
__device__ __forceinline__ size_t global_thread() {
    return size_t(blockIdx.x) * blockDim.x + threadIdx.x;
}

/** The lowest `bits` bits of i in reverse order. */
__device__ __forceinline__ uint32_t bit_reverse(uint32_t i, uint32_t bits) {
    return bits == 0 ? 0 : __brev(i) >> (32 - bits);
}

}  // namespace proofline
