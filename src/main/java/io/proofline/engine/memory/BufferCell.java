package io.proofline.engine.memory;

import io.proofline.engine.Stage;

/** One cell of the buffer table: the live buffers of one class in one stage. */
public record BufferCell(BufferClass bufferClass, Stage stage, long count, long bytes) {
}
