package io.proofline.gpu.internal;

import io.proofline.gpu.GpuUnavailableException;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static io.proofline.gpu.internal.CudaException.check;
import static jcuda.driver.JCudaDriver.cuDeviceGet;
import static jcuda.driver.JCudaDriver.cuDeviceGetAttribute;
import static jcuda.driver.JCudaDriver.cuDeviceGetCount;
import static jcuda.driver.JCudaDriver.cuDeviceGetName;
import static jcuda.driver.JCudaDriver.cuDeviceTotalMem;

/** Device discovery. */
public final class GpuDevices {

    private GpuDevices() {
    }

    /** Every CUDA device; throws {@link GpuUnavailableException} when there is none or no driver. */
    public static List<GpuDevice> discover() {
        CudaDriver.initialize();
        int[] count = new int[1];
        check(cuDeviceGetCount(count), "cuDeviceGetCount");
        if (count[0] == 0) {
            throw new GpuUnavailableException("the CUDA driver reports no devices");
        }
        List<GpuDevice> devices = new ArrayList<>();
        for (int i = 0; i < count[0]; i++) {
            devices.add(describe(i));
        }
        return List.copyOf(devices);
    }

    static CUdevice handle(int ordinal) {
        CUdevice device = new CUdevice();
        check(cuDeviceGet(device, ordinal), "cuDeviceGet(" + ordinal + ")");
        return device;
    }

    private static GpuDevice describe(int ordinal) {
        CUdevice device = handle(ordinal);
        byte[] name = new byte[256];
        check(cuDeviceGetName(name, name.length, device), "cuDeviceGetName");
        int length = 0;
        while (length < name.length && name[length] != 0) {
            length++;
        }
        long[] memory = new long[1];
        check(cuDeviceTotalMem(memory, device), "cuDeviceTotalMem");
        return new GpuDevice(ordinal, new String(name, 0, length, StandardCharsets.UTF_8),
                attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
                attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
                memory[0], attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
    }

    private static int attribute(CUdevice device, int attribute) {
        int[] value = new int[1];
        check(cuDeviceGetAttribute(value, attribute, device), "cuDeviceGetAttribute(" + attribute + ")");
        return value[0];
    }
}
