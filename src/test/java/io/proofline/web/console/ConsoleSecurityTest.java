package io.proofline.web.console;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

import java.io.IOException;
import java.nio.file.Files;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** The console behind the service's real security chain and beans: admin session only, CSRF on every action. */
@Tag("slow")
@SpringBootTest
@AutoConfigureMockMvc
class ConsoleSecurityTest {

    static final String API_KEY = "console-security-test-key";
    static final String PASSWORD = "console-security-test-password";
    static final String METRICS_PASSWORD = "console-security-test-metrics";

    @Autowired
    MockMvc mvc;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws IOException {
        String dir = Files.createTempDirectory("proofline-console-security").toString();
        registry.add("proofline.store.data-dir", () -> dir);
        registry.add("proofline.security.api-keys", () -> API_KEY);
        registry.add("proofline.security.admin-password", () -> PASSWORD);
        registry.add("proofline.security.metrics-password", () -> METRICS_PASSWORD);
        registry.add("proofline.console.demo.enabled", () -> "false");
        registry.add("proofline.gpu.enabled", () -> "false");
    }

    @Test
    void everyPageRendersForTheAdminFromTheRunningService() throws Exception {
        for (String path : new String[]{"/console", "/console/jobs", "/console/circuits", "/console/config"}) {
            mvc.perform(get(path).with(httpBasic("admin", PASSWORD))).andExpect(status().isOk());
        }
        mvc.perform(get("/console").with(httpBasic("admin", PASSWORD)))
                .andExpect(content().string(containsString("data-device=\"cpu\"")));
        mvc.perform(get("/console/config").with(httpBasic("admin", PASSWORD)))
                .andExpect(content().string(containsString("proofline.pipeline.synthesis-workers")));
        mvc.perform(get("/console/pipeline").with(httpBasic("admin", PASSWORD))).andExpect(status().isOk());
        mvc.perform(get("/console/jobs/no-such-job").with(httpBasic("admin", PASSWORD)))
                .andExpect(status().isNotFound());
    }

    @Test
    void withoutTheAdminSessionPagesRedirectToLogin() throws Exception {
        for (String path : new String[]{"/console", "/console/jobs", "/console/circuits", "/console/config",
                "/console/stream", "/console/pipeline"}) {
            mvc.perform(get(path).accept("text/html")).andExpect(status().is3xxRedirection())
                    .andExpect(header().string("Location", endsWith("/login")));
        }
    }

    @Test
    void anApiKeyDoesNotOpenTheConsole() throws Exception {
        mvc.perform(get("/console").header("X-API-Key", API_KEY).accept("text/html"))
                .andExpect(status().is3xxRedirection());
    }

    @Test
    void aWrongPasswordOrANonAdminUserIsRefused() throws Exception {
        mvc.perform(get("/console").with(httpBasic("admin", "wrong"))).andExpect(status().isUnauthorized());
        mvc.perform(get("/console").with(user("viewer").roles("VIEWER"))).andExpect(status().isForbidden());
        mvc.perform(post("/console/intake/drain").with(user("viewer").roles("VIEWER")).with(csrf()))
                .andExpect(status().isForbidden());
    }

    @Test
    void actionsNeedACsrfTokenEvenFromTheAdmin() throws Exception {
        mvc.perform(post("/console/intake/drain").with(user("admin").roles("ADMIN")))
                .andExpect(status().isForbidden());
        mvc.perform(post("/console/intake/drain").with(user("admin").roles("ADMIN")).with(csrf()))
                .andExpect(redirectedUrl("/console"));
        mvc.perform(get("/console").with(user("admin").roles("ADMIN")))
                .andExpect(content().string(containsString("draining")));
        mvc.perform(post("/console/intake/resume").with(user("admin").roles("ADMIN")).with(csrf()))
                .andExpect(redirectedUrl("/console"));
        mvc.perform(get("/console").with(user("admin").roles("ADMIN")))
                .andExpect(content().string(containsString("intake open")));
    }

    @Test
    void theDemoLoadExplainsWhenTheDemoIsOff() throws Exception {
        mvc.perform(post("/console/demo").with(user("admin").roles("ADMIN")).with(csrf()))
                .andExpect(redirectedUrl("/console"));
    }

    @Test
    void theConsoleAndTheLoginPageCarryTheSecurityHeaders() throws Exception {
        for (var request : new org.springframework.test.web.servlet.RequestBuilder[]{
                get("/console").with(httpBasic("admin", PASSWORD)), get("/login")}) {
            mvc.perform(request).andExpect(status().isOk())
                    .andExpect(header().string("Content-Security-Policy", containsString("frame-ancestors 'none'")))
                    .andExpect(header().string("Content-Security-Policy", containsString("script-src 'self'")))
                    .andExpect(header().string("X-Frame-Options", "DENY"))
                    .andExpect(header().string("X-Content-Type-Options", "nosniff"));
        }
    }

    @Test
    void theMetricsUserReadsPrometheusAndHealthOnly() throws Exception {
        mvc.perform(get("/actuator/prometheus").with(httpBasic("metrics", METRICS_PASSWORD)))
                .andExpect(status().isOk()).andExpect(content().string(containsString("proofline_")));
        mvc.perform(get("/actuator/health").with(httpBasic("metrics", METRICS_PASSWORD)))
                .andExpect(status().isOk());
        for (String path : new String[]{"/console", "/console/config", "/actuator/metrics", "/actuator/pipeline"}) {
            mvc.perform(get(path).with(httpBasic("metrics", METRICS_PASSWORD))).andExpect(status().isForbidden());
        }
        mvc.perform(get("/actuator/prometheus").with(httpBasic("admin", PASSWORD))).andExpect(status().isOk());
        mvc.perform(get("/actuator/prometheus")).andExpect(status().isUnauthorized());
    }
}
