package io.proofline.web;

import io.proofline.web.security.Credentials;
import io.proofline.web.security.SecurityConfiguration;
import io.proofline.service.config.SecurityProperties;
import io.proofline.service.config.StoreProperties;
import io.proofline.service.config.UploadProperties;
import io.proofline.service.Tenant;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.TestPropertySource;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What a {@code @WebMvcTest} of a REST controller adds to the slice: the service's real security chains (API key on
 * {@code /api/**}, bounded bodies), with one known key and a small body limit. The slice already has the
 * {@link ProblemHandler}; the controller's service is the test's {@code @MockitoBean}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Import(ApiSlice.Security.class)
@TestPropertySource(properties = {
        "proofline.security.api-keys=" + ApiSlice.KEY,
        "proofline.security.admin-password=slice-password",
        "proofline.security.requests-per-second=100000",
        "proofline.store.max-job-size=" + ApiSlice.MAX_BODY})
@interface ApiSlice {

    String KEY = "slice-test-key";
    /** The tenant that {@link #KEY} authenticates as. */
    Tenant TENANT = Tenant.apiKey(Credentials.keyId(KEY));
    String MAX_BODY = "64KB";

    @TestConfiguration(proxyBeanMethods = false)
    @EnableConfigurationProperties({SecurityProperties.class, StoreProperties.class, UploadProperties.class})
    @Import({SecurityConfiguration.class, Credentials.class})
    class Security {
    }
}
