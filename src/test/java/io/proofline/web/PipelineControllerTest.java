package io.proofline.web;

import io.proofline.web.security.ApiKeyFilter;
import io.proofline.engine.memory.BufferClass;
import io.proofline.engine.memory.BufferTracker;
import io.proofline.engine.memory.FixedMemory;
import io.proofline.engine.memory.MemoryLimit;
import io.proofline.engine.memory.MemoryPlan;
import java.util.OptionalLong;
import io.proofline.engine.memory.MemoryBudget;
import io.proofline.engine.memory.OffHeapBuffer;
import io.proofline.engine.ProvingEngine;
import io.proofline.engine.QueueDepths;
import io.proofline.engine.memory.Reservation;
import io.proofline.engine.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.request;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** {@code /api/v1/pipeline}: a real buffer table (one witness buffer, 300 bytes reserved) as JSON and as events. */
@WebMvcTest(PipelineController.class)
@ApiSlice
class PipelineControllerTest {

    @Autowired
    MockMvc mvc;
    @MockitoBean
    ProvingEngine engine;

    BufferTracker tracker;
    OffHeapBuffer witness;
    Reservation reserved;

    @BeforeEach
    void snapshot() {
        tracker = new BufferTracker();
        MemoryBudget budget = new MemoryBudget(1000);
        tracker.attach(budget, List::of, () -> QueueDepths.NONE);
        tracker.useMemoryPlan(MemoryPlan.of(new MemoryLimit(2L << 30, MemoryLimit.Source.CONFIGURED),
                new FixedMemory(256L << 20, 64L << 20, 32L << 20, 16L << 20, 0, 8L << 20), OptionalLong.empty()));
        witness = tracker.allocate(BufferClass.WITNESS, Stage.SYNTHESIZING, 128);
        reserved = budget.tryAcquire(300).orElseThrow();
        when(engine.snapshot()).thenAnswer(call -> tracker.snapshot());
    }

    @AfterEach
    void release() {
        witness.close();
        reserved.close();
    }

    @Test
    void theSnapshotIsTheEnginesBufferTableAndBudget() throws Exception {
        mvc.perform(get("/api/v1/pipeline").header(ApiKeyFilter.HEADER, ApiSlice.KEY))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_JSON))
                .andExpect(jsonPath("$.budget.totalBytes").value(1000))
                .andExpect(jsonPath("$.budget.reservedBytes").value(300))
                .andExpect(jsonPath("$.memory.limitBytes").value(2L << 30))
                .andExpect(jsonPath("$.memory.limitSource").value("CONFIGURED"))
                .andExpect(jsonPath("$.memory.fixed.metaspace").value(64L << 20))
                .andExpect(jsonPath("$.memory.trackedHostBytes").value(128))
                .andExpect(jsonPath("$.memory.unaccountedBytes").isNumber())
                .andExpect(jsonPath("$.cells[?(@.bufferClass == 'WITNESS' && @.stage == 'SYNTHESIZING')].bytes")
                        .value(128));
    }

    @Test
    void theStreamStartsWithASnapshotEvent() throws Exception {
        MvcResult result = mvc.perform(get("/api/v1/pipeline/stream").header(ApiKeyFilter.HEADER, ApiSlice.KEY))
                .andExpect(request().asyncStarted())
                .andReturn();
        // The first snapshot is written by the broadcast's writer thread, not the request's: wait for it.
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(10).toNanos();
        String events = result.getResponse().getContentAsString();
        while (!events.contains("\n\n") && System.nanoTime() < deadline) {
            Thread.sleep(20);
            events = result.getResponse().getContentAsString();
        }
        assertThat(events).startsWith("event:snapshot\ndata:");
        assertThat(events).contains("\"reservedBytes\":300");
    }

    @Test
    void withoutAValidApiKeyBothAre401() throws Exception {
        mvc.perform(get("/api/v1/pipeline")).andExpect(status().isUnauthorized())
                .andExpect(jsonPath("$.field").value(ApiKeyFilter.HEADER));
        mvc.perform(get("/api/v1/pipeline/stream").header(ApiKeyFilter.HEADER, "wrong"))
                .andExpect(status().isUnauthorized());
    }
}
