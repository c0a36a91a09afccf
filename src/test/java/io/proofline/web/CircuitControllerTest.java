package io.proofline.web;

import io.proofline.web.security.ApiKeyFilter;
import io.proofline.service.circuits.CircuitInfo;
import io.proofline.service.circuits.CircuitService;
import io.proofline.service.circuits.CircuitState;
import io.proofline.service.circuits.CircuitStatus;
import io.proofline.service.circuits.RegistrationProgress;
import io.proofline.service.ConflictException;
import io.proofline.service.InvalidFieldException;
import io.proofline.service.NotFoundException;
import io.proofline.service.TooLargeException;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.hamcrest.Matchers.endsWith;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** {@code /api/v1/circuits}: status codes, the field named in each problem, and the API key. */
@WebMvcTest(CircuitController.class)
@ApiSlice
class CircuitControllerTest {

    static final CircuitInfo MUL3 = new CircuitInfo("ab".repeat(32), "mul3", "bn128", 2, 6, 2, 4, 3608, false, true,
            Instant.parse("2026-01-01T00:00:00Z"));
    static final byte[][] ZKEY = file("zkey", new byte[]{1, 2, 3});

    @Autowired
    MockMvc mvc;
    @MockitoBean
    CircuitService circuits;

    @Test
    void aNewCircuitIs201WithItsLocationAndAKnownOne200() throws Exception {
        when(circuits.register(eq(ApiSlice.TENANT), any(), eq(Optional.empty()), eq(Optional.empty()), eq("mul3")))
                .thenReturn(new CircuitService.Registered(MUL3, true))
                .thenReturn(new CircuitService.Registered(MUL3, false));

        register(ZKEY, field("name", "mul3"))
                .andExpect(status().isCreated())
                .andExpect(header().string("Location", endsWith("/api/v1/circuits/" + MUL3.id())))
                .andExpect(jsonPath("$.id").value(MUL3.id()))
                .andExpect(jsonPath("$.curve").value("bn128"))
                .andExpect(jsonPath("$.hasR1cs").value(true));
        register(ZKEY, field("name", "mul3"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.id").value(MUL3.id()));
    }

    @Test
    void aCircuitStillRegisteringIs202WithItsProgressAndAFailedOneShowsWhy() throws Exception {
        CircuitInfo registering = MUL3.withState(CircuitState.REGISTERING, null);
        when(circuits.register(eq(ApiSlice.TENANT), any(), eq(Optional.empty()), eq(Optional.empty()), eq(null)))
                .thenReturn(new CircuitService.Registered(registering, true))
                .thenReturn(new CircuitService.Registered(registering, false));
        when(circuits.status(ApiSlice.TENANT, MUL3.id())).thenReturn(new CircuitStatus(registering,
                List.of(new RegistrationProgress.Section("A", 6, 6), new RegistrationProgress.Section("B1", 2, 6))))
                .thenReturn(new CircuitStatus(MUL3.withState(CircuitState.FAILED,
                        "circuit.zkey: section 6 (B1): point 3 is not on the curve of bn254.G1"), List.of()));

        for (int i = 0; i < 2; i++) { // new, and registered again while still REGISTERING
            register(ZKEY)
                    .andExpect(status().isAccepted())
                    .andExpect(header().string("Location", endsWith("/api/v1/circuits/" + MUL3.id())))
                    .andExpect(jsonPath("$.state").value("REGISTERING"));
        }
        mvc.perform(get("/api/v1/circuits/" + MUL3.id()).header(ApiKeyFilter.HEADER, ApiSlice.KEY))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.state").value("REGISTERING"))
                .andExpect(jsonPath("$.progress[1].section").value("B1"))
                .andExpect(jsonPath("$.progress[1].checked").value(2))
                .andExpect(jsonPath("$.progress[1].total").value(6));
        mvc.perform(get("/api/v1/circuits/" + MUL3.id()).header(ApiKeyFilter.HEADER, ApiSlice.KEY))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.state").value("FAILED"))
                .andExpect(jsonPath("$.failure").value("circuit.zkey: section 6 (B1): point 3 is not on the curve "
                        + "of bn254.G1"));
    }

    @Test
    void aMissingOrEmptyZkeyIsA400NamingIt() throws Exception {
        register(field("name", "x"))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.field").value("zkey"));
        register(file("zkey", new byte[0]))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("zkey"))
                .andExpect(jsonPath("$.detail").value("zkey is required (a non-empty 'zkey' part)"));
        verifyNoInteractions(circuits);
    }

    @Test
    void theServicesRefusalsKeepTheirStatusAndField() throws Exception {
        when(circuits.register(any(), any(), any(), any(), any()))
                .thenThrow(InvalidFieldException.unprocessable("zkey", "not a Groth16 zkey"))
                .thenThrow(new TooLargeException("zkey", "larger than 2GB"));
        register(ZKEY)
                .andExpect(status().isUnprocessableContent())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.field").value("zkey"))
                .andExpect(jsonPath("$.detail").value("not a Groth16 zkey"));
        register(ZKEY)
                .andExpect(status().isContentTooLarge())
                .andExpect(jsonPath("$.field").value("zkey"));
    }

    @Test
    void readAndDelete() throws Exception {
        when(circuits.statuses(ApiSlice.TENANT)).thenReturn(List.of(new CircuitStatus(MUL3, List.of())));
        when(circuits.status(ApiSlice.TENANT, MUL3.id())).thenReturn(new CircuitStatus(MUL3, List.of()));
        when(circuits.status(ApiSlice.TENANT, "nope")).thenThrow(new NotFoundException("id", "no circuit nope"));
        when(circuits.verificationKeyJson(ApiSlice.TENANT, MUL3.id())).thenReturn("{\"protocol\":\"groth16\"}");
        doThrow(new ConflictException("id", "2 unfinished jobs use it")).when(circuits).delete(ApiSlice.TENANT, "busy");

        mvc.perform(get("/api/v1/circuits").header(ApiKeyFilter.HEADER, ApiSlice.KEY))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$[0].name").value("mul3"))
                .andExpect(jsonPath("$[0].state").value("READY"));
        mvc.perform(get("/api/v1/circuits/" + MUL3.id()).header(ApiKeyFilter.HEADER, ApiSlice.KEY))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.constraints").value(2));
        mvc.perform(get("/api/v1/circuits/nope").header(ApiKeyFilter.HEADER, ApiSlice.KEY))
                .andExpect(status().isNotFound())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.field").value("id"));
        mvc.perform(get("/api/v1/circuits/" + MUL3.id() + "/verification-key").header(ApiKeyFilter.HEADER, ApiSlice.KEY))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_JSON))
                .andExpect(jsonPath("$.protocol").value("groth16"));
        mvc.perform(delete("/api/v1/circuits/" + MUL3.id()).header(ApiKeyFilter.HEADER, ApiSlice.KEY))
                .andExpect(status().isNoContent());
        verify(circuits).delete(ApiSlice.TENANT, MUL3.id());
        mvc.perform(delete("/api/v1/circuits/busy").header(ApiKeyFilter.HEADER, ApiSlice.KEY))
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.detail").value("2 unfinished jobs use it"));
    }

    @Test
    void withoutAValidApiKeyNothingReachesTheService() throws Exception {
        mvc.perform(get("/api/v1/circuits"))
                .andExpect(status().isUnauthorized())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.field").value(ApiKeyFilter.HEADER));
        mvc.perform(get("/api/v1/circuits").header(ApiKeyFilter.HEADER, "wrong-key"))
                .andExpect(status().isUnauthorized());
        mvc.perform(org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post("/api/v1/circuits")
                        .contentType("multipart/form-data; boundary=b0undary").content("--b0undary--\r\n"))
                .andExpect(status().isUnauthorized());
        mvc.perform(delete("/api/v1/circuits/" + MUL3.id()))
                .andExpect(status().isUnauthorized());
        verifyNoInteractions(circuits);
    }

    /** A multipart registration as a client sends it: the controller reads the raw body part by part. */
    private org.springframework.test.web.servlet.ResultActions register(byte[][]... parts) throws Exception {
        var body = new java.io.ByteArrayOutputStream();
        for (byte[][] part : parts) {
            body.writeBytes("--b0undary\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            body.writeBytes(part[0]);
            body.writeBytes(part[1]);
            body.writeBytes("\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }
        body.writeBytes("--b0undary--\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        return mvc.perform(org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post("/api/v1/circuits")
                .contentType("multipart/form-data; boundary=b0undary").content(body.toByteArray())
                .header(ApiKeyFilter.HEADER, ApiSlice.KEY));
    }

    private static byte[][] field(String name, String value) {
        return new byte[][]{("Content-Disposition: form-data; name=\"" + name + "\"\r\n\r\n")
                .getBytes(java.nio.charset.StandardCharsets.US_ASCII),
                value.getBytes(java.nio.charset.StandardCharsets.UTF_8)};
    }

    private static byte[][] file(String name, byte[] content) {
        return new byte[][]{("Content-Disposition: form-data; name=\"" + name + "\"; filename=\"circuit." + name
                + "\"\r\nContent-Type: application/octet-stream\r\n\r\n")
                .getBytes(java.nio.charset.StandardCharsets.US_ASCII), content};
    }
}
