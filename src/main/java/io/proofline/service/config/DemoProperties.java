package io.proofline.service.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code proofline.console.demo.*}: the console's first-run demo circuit.
 *
 * @param enabled generate and register the INSECURE {@code demo} circuit at the first start, for the console's
 *                "run demo load" button
 */
@ConfigurationProperties("proofline.console.demo")
public record DemoProperties(@DefaultValue("true") boolean enabled) {
}
