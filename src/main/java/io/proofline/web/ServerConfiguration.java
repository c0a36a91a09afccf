package io.proofline.web;

import io.proofline.service.config.UploadProperties;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The embedded Tomcat's part in bounding requests: a refused body is not read to its end ({@link RefusedBodyValve}),
 * and a read of a request body waits at most {@code proofline.uploads.idle-timeout} for its next bytes (Tomcat's
 * upload timeout, which otherwise is the connection timeout of a minute), so that {@link BoundedBodyFilter}'s deadline
 * also ends a body that has stopped arriving. The container parses no multipart body
 * ({@code spring.servlet.multipart.enabled: false}): ours are read part by part from the bounded stream.
 */
@Configuration(proxyBeanMethods = false)
class ServerConfiguration {

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> boundedRequestBodies(UploadProperties uploads) {
        return factory -> {
            factory.addEngineValves(new RefusedBodyValve());
            factory.addConnectorCustomizers(connector -> {
                connector.setProperty("disableUploadTimeout", "false");
                connector.setProperty("connectionUploadTimeout", Long.toString(uploads.idleTimeout().toMillis()));
            });
        };
    }
}
