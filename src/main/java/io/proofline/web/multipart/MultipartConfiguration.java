package io.proofline.web.multipart;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.multipart.MultipartHttpServletRequest;
import org.springframework.web.multipart.MultipartResolver;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * No multipart body is parsed by the servlet container or by Spring ({@code spring.servlet.multipart.enabled: false},
 * and this resolver resolves none): Tomcat's parser would read a body before any filter could bound it, with its own
 * limits and no deadline. Job submissions ({@link io.proofline.web.JobSubmissionReader}) and circuit registrations
 * ({@link CircuitUploadReader}) read their parts from the bounded request stream instead, into files.
 */
@Configuration(proxyBeanMethods = false)
public class MultipartConfiguration {

    @Bean(name = DispatcherServlet.MULTIPART_RESOLVER_BEAN_NAME)
    MultipartResolver multipartResolver() {
        return new MultipartResolver() {
            @Override
            public boolean isMultipart(HttpServletRequest request) {
                return false;
            }

            @Override
            public MultipartHttpServletRequest resolveMultipart(HttpServletRequest request) {
                throw new UnsupportedOperationException("multipart bodies are read by the controllers");
            }

            @Override
            public void cleanupMultipart(MultipartHttpServletRequest request) {
            }
        };
    }
}
