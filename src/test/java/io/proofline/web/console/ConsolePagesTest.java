package io.proofline.web.console;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.security.test.context.support.WithMockUser;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.not;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.flash;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** Every console page renders from the backend's figures, and every action needs the admin session and CSRF. */
@WebMvcTest(ConsoleController.class)
@Import({Units.class, ConsolePagesTest.Backend.class})
class ConsolePagesTest {

    @TestConfiguration
    static class Backend {
        @Bean
        FakeConsoleBackend fakeConsoleBackend() {
            return new FakeConsoleBackend();
        }
    }

    @Autowired
    MockMvc mvc;
    @Autowired
    FakeConsoleBackend backend;

    @BeforeEach
    void reset() {
        backend.actions.clear();
        backend.accepting = true;
    }

    @Test
    @WithMockUser(username = "admin", roles = "ADMIN")
    void dashboardShowsThePileUpInTheBufferTable() throws Exception {
        mvc.perform(get("/console"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(
                        // the a/b/c row, AWAITING_DEVICE cell: 84 buffers, 336 GiB, tinted at full strength
                        containsString("data-class=\"ABC\""),
                        containsString("<span class=\"count\">84</span>"),
                        containsString("336 GiB"),
                        containsString("--heat:1.000"),
                        // the witnesses waiting (112 GiB, a third of it) strong; 3 MiB of handles faintest
                        containsString("--heat:0.860"), containsString("--heat:0.120"),
                        // memory panel: RSS and its peak, the budget as a bar, heap, off-heap, the GPU
                        containsString("668 GiB"), containsString("700 GiB"),
                        containsString("610 GiB"), containsString("740 GiB"),
                        containsString("width:82.43243243243244%"),
                        containsString("900 MiB"), containsString("560 GiB"),
                        containsString("data-device=\"gpu0\""), containsString("60.0 GiB"),
                        // the limit, its fixed part by figure, and the unaccounted bytes
                        containsString("data-field=\"limit\">768 GiB<"), containsString(">cgroup<"),
                        containsString("data-figure=\"metaspace\""), containsString("256 MiB"),
                        containsString("data-field=\"unaccounted\">3.00 GiB<"),
                        // the heap in use after the last GC against the max heap
                        containsString("data-field=\"heapAfterGc\">700 MiB<"),
                        containsString("data-field=\"heapMax\">1.00 GiB<"),
                        // per device: the keys resident on it and its working buffers (KEY_DEVICE, SCRATCH_DEVICE)
                        containsString("data-field=\"keyBytes\">9.50 GiB<"),
                        containsString("data-field=\"keyBuffers\">2<"),
                        containsString("data-field=\"scratchBytes\">3.25 GiB<"),
                        containsString("data-field=\"scratchBuffers\">14<"),
                        // every device: two logical GPUs (one breaker open) and the CPU fallback
                        containsString("data-device=\"gpu1\""), containsString("50.0 GiB"),
                        containsString("data-device=\"cpu\""), containsString(" (fallback)"),
                        containsString(">open<"),
                        // queues: 28 waiting for the GPU, hand-off unbounded
                        containsString("data-field=\"awaitingDevice\">28<"), containsString("unbounded"),
                        // the chart's stream, the WebJar, the demo button, no CDN
                        containsString("data-stream=\"/console/stream\""),
                        containsString("/webjars/uplot/1.6.30/dist/uPlot.iife.min.js"),
                        containsString("Run demo load"),
                        not(containsString("cdn")))));
    }

    @Test
    @WithMockUser(username = "admin", roles = "ADMIN")
    void emptyCellsAreNotHighlighted() throws Exception {
        String html = mvc.perform(get("/console")).andReturn().getResponse().getContentAsString();
        assertThat(html).contains("data-stage=\"QUEUED\" class=\"zero\"");
        // KEY_DEVICE lives only in the RESIDENT column: that is its one hot cell, the other stages are zero
        String keyDeviceRow = html.substring(html.indexOf("data-class=\"KEY_DEVICE\""),
                html.indexOf("data-class=\"SCRATCH_DEVICE\""));
        assertThat(keyDeviceRow.split("class=\"hot\"", -1)).hasSize(2);
        assertThat(keyDeviceRow).contains("data-stage=\"RESIDENT\" class=\"hot\"").contains("data-stage=\"PROVING\" class=\"zero\"");
    }

    @Test
    @WithMockUser(username = "admin", roles = "ADMIN")
    void pipelineJsonIsTheSnapshot() throws Exception {
        mvc.perform(get("/console/pipeline"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.budget.reservedBytes").value(610 * FakeConsoleBackend.GIB))
                .andExpect(jsonPath("$.queues.awaitingDevice").value(28))
                .andExpect(jsonPath("$.cells[0].bufferClass").value("ABC"));
    }

    @Test
    @WithMockUser(username = "admin", roles = "ADMIN")
    void jobsListShowsStatusPriorityPartitionsAgeAndCancelOnlyForUnfinished() throws Exception {
        String html = mvc.perform(get("/console/jobs")).andExpect(status().isOk())
                .andReturn().getResponse().getContentAsString();
        assertThat(html).contains(">running<", ">done<", ">high<", ">3<", "42 s",
                "data-cancel=\"" + FakeConsoleBackend.RUNNING_JOB + "\"")
                .doesNotContain("data-cancel=\"" + FakeConsoleBackend.DONE_JOB + "\"");
    }

    @Test
    @WithMockUser(username = "admin", roles = "ADMIN")
    void jobPageDrawsTheWaterfallAndTimings() throws Exception {
        String html = mvc.perform(get("/console/jobs/" + FakeConsoleBackend.RUNNING_JOB)).andExpect(status().isOk())
                .andReturn().getResponse().getContentAsString();
        // partition 0 took 14.11 s of stages: its 9 s GPU wait is 63.8 % of the axis, after 2.52 s of queue+synthesis
        assertThat(html).contains("class=\"seg gpuwait\"", "class=\"seg synth\"", "class=\"seg proving\"",
                "GPU wait: 9.00 s", "prove start: 1.80 s", "14.1 s", "id=\"cancel-job\"");
        assertThat(html).containsPattern("left:17\\.8\\d*%;width:63\\.7\\d*%");
    }

    @Test
    @WithMockUser(username = "admin", roles = "ADMIN")
    void unknownJobIs404() throws Exception {
        mvc.perform(get("/console/jobs/nope")).andExpect(status().isNotFound());
    }

    @Test
    @WithMockUser(username = "admin", roles = "ADMIN")
    void circuitsShowDimensionsAndWhereKeysAreCached() throws Exception {
        mvc.perform(get("/console/circuits")).andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("porep-demo"), containsString("bls12381"),
                        containsString("130,000,000"), containsString("2^27"), containsString("host · 47.0 GiB"),
                        containsString("gpu0 · 30.0 GiB"),
                        containsString("/console/circuits/" + FakeConsoleBackend.CIRCUIT + "/evict"),
                        containsString(">READY<"), containsString(">REGISTERING<"),
                        containsString("B2 1,048,576 / 16,777,217 · 61% of 83,886,083 points"))));
    }

    @Test
    @WithMockUser(username = "admin", roles = "ADMIN")
    void tenantsShowTheirQueueInFlightWorkUsageAndLimits() throws Exception {
        mvc.perform(get("/console/tenants")).andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("key-0a1b2c3d4e5f"), containsString("500 / 512"),
                        containsString(">430<"), containsString("50 / 1024"), containsString("3.00 GiB / —"),
                        containsString("key-9f8e7d6c5b4a"), containsString("4.00"),
                        containsString("CRITICAL HIGH LOW NORMAL"), containsString("0 B / 8.00 GiB"),
                        containsString("1 / 16"), containsString("href=\"/console/tenants\""))));
    }

    @Test
    @WithMockUser(username = "admin", roles = "ADMIN")
    void configurationIsListed() throws Exception {
        mvc.perform(get("/console/config")).andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("proofline.memory.budget"),
                        containsString("740 GiB"), containsString("proofline.pipeline.synthesis-workers"))));
    }

    @Test
    @WithMockUser(username = "admin", roles = "ADMIN")
    void formsCarryCsrfTokens() throws Exception {
        String html = mvc.perform(get("/console/jobs")).andReturn().getResponse().getContentAsString();
        assertThat(html).contains("name=\"_csrf\"");
    }

    @Test
    @WithMockUser(username = "admin", roles = "ADMIN")
    void actionsWorkWithTheAdminSessionAndCsrf() throws Exception {
        mvc.perform(post("/console/jobs/" + FakeConsoleBackend.RUNNING_JOB + "/cancel").with(csrf()))
                .andExpect(redirectedUrl("/console/jobs/" + FakeConsoleBackend.RUNNING_JOB))
                .andExpect(flash().attribute("notice", containsString("cancelled")));
        mvc.perform(post("/console/circuits/" + FakeConsoleBackend.CIRCUIT + "/evict").with(csrf()))
                .andExpect(redirectedUrl("/console/circuits"));
        mvc.perform(post("/console/intake/drain").with(csrf())).andExpect(redirectedUrl("/console"));
        mvc.perform(get("/console")).andExpect(content().string(containsString("draining")));
        mvc.perform(post("/console/intake/resume").with(csrf())).andExpect(redirectedUrl("/console"));
        mvc.perform(post("/console/demo").with(csrf())).andExpect(redirectedUrl("/console"))
                .andExpect(flash().attribute("notice", containsString("6 demo jobs")));
        assertThat(backend.actions).containsExactly("cancel " + FakeConsoleBackend.RUNNING_JOB,
                "evict " + FakeConsoleBackend.CIRCUIT, "drain", "resume", "demo");
    }

    @Test
    @WithMockUser(username = "admin", roles = "ADMIN")
    void actionsWithoutCsrfAreForbidden() throws Exception {
        for (String path : new String[]{"/console/jobs/" + FakeConsoleBackend.RUNNING_JOB + "/cancel",
                "/console/circuits/" + FakeConsoleBackend.CIRCUIT + "/evict", "/console/intake/drain",
                "/console/intake/resume", "/console/demo"}) {
            mvc.perform(post(path)).andExpect(status().isForbidden());
        }
        assertThat(backend.actions).isEmpty();
    }

    @Test
    void pagesWithoutASessionRedirectToLogin() throws Exception {
        for (String path : new String[]{"/console", "/console/jobs", "/console/jobs/" + FakeConsoleBackend.DONE_JOB,
                "/console/circuits", "/console/config"}) {
            mvc.perform(get(path).accept("text/html")).andExpect(status().is3xxRedirection())
                    .andExpect(header().string("Location", endsWith("/login")));
        }
    }

    @Test
    void actionsWithoutASessionDoNothing() throws Exception {
        mvc.perform(post("/console/intake/drain").with(csrf()).accept("text/html"))
                .andExpect(status().is3xxRedirection()).andExpect(header().string("Location", endsWith("/login")));
        mvc.perform(post("/console/demo").with(csrf()).accept("text/html"))
                .andExpect(status().is3xxRedirection());
        assertThat(backend.actions).isEmpty();
    }
}
