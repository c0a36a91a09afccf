package io.proofline.web;

import io.proofline.service.StoreProperties;
import jakarta.servlet.MultipartConfigElement;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Multipart uploads are bounded by {@code proofline.store.max-circuit-size} (the largest part is a zkey), taken from
 * its record rather than repeated under {@code spring.servlet.multipart.*}; parts go to disk from the first byte.
 */
@Configuration(proxyBeanMethods = false)
class MultipartConfiguration {

    @Bean
    MultipartConfigElement multipartConfigElement(StoreProperties store) {
        long max = store.maxCircuitSize().toBytes();
        return new MultipartConfigElement("", max, max, 0);
    }
}
