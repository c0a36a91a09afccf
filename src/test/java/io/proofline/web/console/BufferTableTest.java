package io.proofline.web.console;

import io.proofline.engine.memory.BufferClass;
import io.proofline.engine.Stage;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class BufferTableTest {

    @Test
    void rowsFollowTheOperatorsReadingOrderAndStagesAreColumns() {
        BufferTable table = BufferTable.of(new FakeConsoleBackend().snapshot());
        assertThat(table.rows()).extracting(BufferTable.Row::bufferClass).containsExactly(BufferClass.ABC,
                BufferClass.WITNESS, BufferClass.PENDING, BufferClass.KEY_HOST, BufferClass.KEY_DEVICE,
                BufferClass.SCRATCH_DEVICE, BufferClass.TWIDDLES, BufferClass.INPUT);
        assertThat(table.rows()).as("every class has a row").hasSize(BufferClass.values().length);
        assertThat(table.stages()).containsExactly(Stage.values());
        BufferTable.Row abc = table.rows().getFirst();
        assertThat(abc.count()).isEqualTo(87);
        assertThat(abc.bytes()).isEqualTo(29 * 12 * FakeConsoleBackend.GIB);
        assertThat(abc.cells().get(Stage.AWAITING_DEVICE.ordinal()).heat()).isEqualTo(1.0);
        assertThat(abc.cells().get(Stage.QUEUED.ordinal()).empty()).isTrue();
        assertThat(abc.cells().get(Stage.QUEUED.ordinal()).style()).isEmpty();
    }

    @Test
    void heatIsFullForTheLargestCellAndFadesByDecades() {
        assertThat(BufferTable.heat(0, 100)).isZero();
        assertThat(BufferTable.heat(100, 100)).isEqualTo(1.0);
        assertThat(BufferTable.heat(10, 100)).isCloseTo(0.12 + 0.88 * 2 / 3, within(1e-12));
        assertThat(BufferTable.heat(1, 1000)).isCloseTo(0.12, within(1e-12));
        assertThat(BufferTable.heat(1, 1L << 40)).isEqualTo(0.12);
    }
}
