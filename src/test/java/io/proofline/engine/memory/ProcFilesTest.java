package io.proofline.engine.memory;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProcFilesTest {

    @Test
    void kibFieldsAreReadInBytes() {
        List<String> status = List.of("Name:\tjava", "VmHWM:\t  2048 kB", "VmRSS:\t  1024 kB");
        assertEquals(1024 * 1024, ProcFiles.kibField(status, "VmRSS:"));
        assertEquals(2048 * 1024, ProcFiles.kibField(status, "VmHWM:"));
        assertEquals(-1, ProcFiles.kibField(status, "VmSwap:"));
    }

    @Test
    void memTotalIsReadWhereThereIsAProcFileSystem() {
        ProcFiles.memTotal().ifPresent(total -> assertTrue(total > 0));
    }
}
