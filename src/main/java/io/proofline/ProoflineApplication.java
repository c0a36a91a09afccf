package io.proofline;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The Spring Boot service: REST API, console and Actuator around the proving engine. */
@SpringBootApplication
public class ProoflineApplication {

    static void start(String[] args) {
        SpringApplication.run(ProoflineApplication.class, args);
    }
}
