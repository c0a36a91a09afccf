package io.proofline.service.config;

import io.proofline.engine.EngineConfig;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code proofline.*} settings that belong to no group.
 *
 * @param verifyProofs verify every proof before reporting it, unless a job says otherwise
 */
@ConfigurationProperties("proofline")
record ProoflineProperties(@DefaultValue("" + EngineConfig.DEFAULT_VERIFY_PROOFS) boolean verifyProofs) {
}
