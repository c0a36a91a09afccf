package io.proofline.service;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class UploadTest {

    @TempDir
    Path dir;

    @Test
    void anUploadWithinTheLimitIsCopiedWhole() throws IOException {
        byte[] bytes = new byte[3 << 20];
        new SplittableRandom(5).nextBytes(bytes);
        Upload upload = () -> new ByteArrayInputStream(bytes);
        Path target = dir.resolve("in");
        assertThat(upload.moveTo(target, bytes.length)).isEqualTo(bytes.length);
        assertThat(Files.readAllBytes(target)).isEqualTo(bytes);
    }

    @Test
    void anUploadPastTheLimitStopsSoonAfterItAndSaysSo() throws IOException {
        long limit = 1 << 20;
        AtomicLong read = new AtomicLong();
        long offered = 64L << 20;
        Upload large = () -> new InputStream() {
            @Override
            public int read() {
                return read.get() < offered ? (int) (read.incrementAndGet() & 0x7f) : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                int n = (int) Math.min(len, offered - read.get());
                read.addAndGet(Math.max(n, 0));
                return n > 0 ? n : -1;
            }
        };
        long size = large.moveTo(dir.resolve("in"), limit);
        assertThat(size).isGreaterThan(limit);
        // the copy stops at the first buffer past the limit: a client cannot fill the disk through it
        assertThat(read.get()).isLessThanOrEqualTo(limit + (1 << 20));
        assertThat(Files.size(dir.resolve("in"))).isEqualTo(size);
    }
}
