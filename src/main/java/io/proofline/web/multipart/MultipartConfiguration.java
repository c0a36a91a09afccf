package io.proofline.web.multipart;

import io.proofline.service.DataDirectory;
import io.proofline.service.config.StoreProperties;
import jakarta.servlet.MultipartConfigElement;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.multipart.MultipartResolver;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * Multipart uploads are bounded by {@code proofline.store.max-circuit-size} (the largest part is a zkey), taken from
 * its record rather than repeated under {@code spring.servlet.multipart.*}; parts go to disk from the first byte,
 * into the data directory's {@code tmp/}, whence a registration moves them into place ({@link MultipartUpload}).
 * Job submissions are not parsed by the container at all ({@link MultipartExceptJobsResolver}): their parts are
 * streamed into the job's staging area under {@code proofline.store.max-job-size}.
 */
@Configuration(proxyBeanMethods = false)
public class MultipartConfiguration {

    @Bean
    MultipartConfigElement multipartConfigElement(StoreProperties store, ObjectProvider<DataDirectory> data) {
        long max = store.maxCircuitSize().toBytes();
        // no data directory in a web slice without the service layer: the container's own temporary folder then
        DataDirectory dir = data.getIfAvailable();
        String location = dir == null ? "" : dir.tmp().toString();
        return new MultipartConfigElement(location, max, max, 0);
    }

    @Bean(name = DispatcherServlet.MULTIPART_RESOLVER_BEAN_NAME)
    MultipartResolver multipartResolver() {
        return new MultipartExceptJobsResolver();
    }
}
