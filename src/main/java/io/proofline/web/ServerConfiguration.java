package io.proofline.web;

import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The embedded Tomcat's part in bounding requests: a refused body is not read to its end ({@link RefusedBodyValve}). */
@Configuration(proxyBeanMethods = false)
class ServerConfiguration {

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> refusedBodiesAreNotRead() {
        return factory -> factory.addEngineValves(new RefusedBodyValve());
    }
}
