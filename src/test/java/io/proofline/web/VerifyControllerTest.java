package io.proofline.web;

import io.proofline.web.security.ApiKeyFilter;
import io.proofline.service.InvalidFieldException;
import io.proofline.service.NotFoundException;
import io.proofline.service.circuits.ProofVerifier;
import io.proofline.snark.verifier.VerificationResult;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentMatchers;
import tools.jackson.databind.JsonNode;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

import static io.proofline.web.JobControllerTest.expectField;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.ArgumentMatchers.isNull;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** {@code POST /api/v1/verify}: the verifier's answer as it is, refusals as problems naming the field, the API key. */
@WebMvcTest(VerifyController.class)
@ApiSlice
class VerifyControllerTest {

    static final String PROOF = "{\"pi_a\":[\"1\",\"2\",\"1\"],\"protocol\":\"groth16\"}";

    @Autowired
    MockMvc mvc;
    @MockitoBean
    ProofVerifier verifier;

    @Test
    void validAndInvalidProofsAreBoth200WithTheVerdict() throws Exception {
        when(verifier.verify(eq(ApiSlice.TENANT), eq("c1"), ArgumentMatchers.<JsonNode>isNull(), eq(tree(PROOF)),
                eq(tree("[\"33\"]")))).thenReturn(VerificationResult.VALID);
        when(verifier.verify(eq(ApiSlice.TENANT), isNull(), eq(tree("{\"protocol\":\"groth16\"}")), eq(tree(PROOF)),
                eq(tree("[\"34\"]"))))
                .thenReturn(VerificationResult.invalid("the pairing check failed"));

        verify("{\"circuitId\":\"c1\",\"proof\":" + PROOF + ",\"publicSignals\":[\"33\"]}")
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.valid").value(true))
                .andExpect(jsonPath("$.reason").value("OK"));
        verify("{\"verificationKey\":{\"protocol\":\"groth16\"},\"proof\":" + PROOF + ",\"publicSignals\":[\"34\"]}")
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.valid").value(false))
                .andExpect(jsonPath("$.reason").value("the pairing check failed"));
    }

    @Test
    void theVerifiersRefusalsNameTheirField() throws Exception {
        when(verifier.verify(any(), any(), ArgumentMatchers.<JsonNode>any(), any(), any()))
                .thenThrow(InvalidFieldException.malformed("proof", "pi_a is not a G1 point"))
                .thenThrow(new NotFoundException("circuitId", "no circuit c9"));
        expectField(verify("{\"proof\":{},\"publicSignals\":[]}"), "proof");
        verify("{\"circuitId\":\"c9\",\"proof\":{},\"publicSignals\":[]}")
                .andExpect(status().isNotFound())
                .andExpect(jsonPath("$.field").value("circuitId"));
    }

    @Test
    void aBodyThatIsNotAJsonObjectIsA400() throws Exception {
        expectField(verify("not json"), "body");
        expectField(verify(""), "body");
        verifyNoInteractions(verifier);
    }

    @Test
    void withoutAValidApiKeyNothingReachesTheVerifier() throws Exception {
        mvc.perform(post("/api/v1/verify").contentType(MediaType.APPLICATION_JSON).content("{}"))
                .andExpect(status().isUnauthorized())
                .andExpect(jsonPath("$.field").value(ApiKeyFilter.HEADER));
        verifyNoInteractions(verifier);
    }

    private static JsonNode tree(String json) {
        return Api.JSON.readTree(json);
    }

    private ResultActions verify(String json) throws Exception {
        return mvc.perform(post("/api/v1/verify").contentType(MediaType.APPLICATION_JSON).content(json)
                .header(ApiKeyFilter.HEADER, ApiSlice.KEY));
    }
}
