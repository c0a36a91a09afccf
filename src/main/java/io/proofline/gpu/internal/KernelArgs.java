package io.proofline.gpu.internal;

import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;

/**
 * Builds the {@code kernelParams} array of {@code cuLaunchKernel}: one pointer to each argument's bytes. The Java
 * type fixes the C type: {@link DeviceBuffer} / {@link CUdeviceptr} → a device pointer, {@code Integer} →
 * {@code uint32_t}, {@code Long} → {@code size_t}, {@code int[]} → a struct passed by value (e.g. a field element).
 */
final class KernelArgs {

    private KernelArgs() {
    }

    static Pointer of(Object... args) {
        Pointer[] pointers = new Pointer[args.length];
        for (int i = 0; i < args.length; i++) {
            pointers[i] = switch (args[i]) {
                case DeviceBuffer b -> Pointer.to(b.pointer());
                case CUdeviceptr p -> Pointer.to(p);
                case Integer v -> Pointer.to(new int[] {v});
                case Long v -> Pointer.to(new long[] {v});
                case int[] words -> Pointer.to(words);
                case null -> throw new IllegalArgumentException("kernel argument " + i + " is null");
                default -> throw new IllegalArgumentException(
                        "kernel argument " + i + " has unsupported type " + args[i].getClass().getName());
            };
        }
        return Pointer.to(pointers);
    }
}
