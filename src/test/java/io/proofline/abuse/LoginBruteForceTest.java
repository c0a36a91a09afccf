package io.proofline.abuse;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.RequestPostProcessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * Password guessing against the console's HTTP basic and form login, from addresses of the test's choosing (MockMvc):
 * after {@code proofline.security.login-attempts} failures the guessed user, or the guessing address, is locked out
 * with 429 even for the right password, while other users and addresses log in as before. It guesses at the metrics
 * user and at made-up names, never at the admin, whom the other families of the shared service log in as.
 */
class LoginBruteForceTest extends AbuseService {

    static final int ATTEMPTS = 5;

    @Autowired
    MockMvc mvc;

    static RequestPostProcessor from(String address) {
        return request -> {
            request.setRemoteAddr(address);
            return request;
        };
    }

    int basic(String user, String password, String address) throws Exception {
        return mvc.perform(get("/actuator/prometheus").with(httpBasic(user, password)).with(from(address)))
                .andReturn().getResponse().getStatus();
    }

    @Test
    void guessingOneUsersPasswordLocksThatUserFromEveryAddress() throws Exception {
        for (int i = 0; i < ATTEMPTS; i++) {
            assertThat(basic("metrics", "guess-" + i, "10.66.0.1")).as("attempt " + i).isEqualTo(401);
        }
        for (int i = 0; i < 25; i++) {
            var response = mvc.perform(get("/actuator/prometheus").with(httpBasic("metrics", "guess-x" + i))
                    .with(from("10.66.0.1"))).andReturn().getResponse();
            assertThat(response.getStatus()).isEqualTo(429);
            assertThat(Long.parseLong(response.getHeader("Retry-After"))).isPositive();
            assertThat(response.getContentType()).startsWith("application/problem+json");
        }
        assertThat(basic("metrics", METRICS_PASSWORD, "10.66.0.1")).as("the right password, while locked")
                .isEqualTo(429);
        assertThat(basic("metrics", METRICS_PASSWORD, "10.66.0.2")).as("the same user from elsewhere")
                .isEqualTo(429);
        assertThat(basic("admin", ADMIN_PASSWORD, "10.66.0.2")).as("another user").isEqualTo(200);

        assertStillServesAndLeaksNothing();
    }

    @Test
    void sprayingManyUsersFromOneAddressLocksThatAddress() throws Exception {
        for (int i = 0; i < ATTEMPTS; i++) {
            assertThat(basic("spray-" + i, "password", "10.66.1.1")).isEqualTo(401);
        }
        assertThat(basic("spray-next", "password", "10.66.1.1")).isEqualTo(429);
        assertThat(basic("admin", ADMIN_PASSWORD, "10.66.1.1")).as("even the admin, from that address")
                .isEqualTo(429);
        assertThat(basic("admin", ADMIN_PASSWORD, "10.66.1.2")).as("the admin from elsewhere").isEqualTo(200);

        assertStillServesAndLeaksNothing();
    }

    @Test
    void theFormLoginIsThrottledToo() throws Exception {
        for (int i = 0; i < ATTEMPTS; i++) {
            int status = mvc.perform(post("/login").param("username", "form-intruder").param("password", "g" + i)
                    .with(csrf()).with(from("10.66.2.1"))).andReturn().getResponse().getStatus();
            assertThat(status).as("a failed form login redirects back to the form").isEqualTo(302);
        }
        int locked = mvc.perform(post("/login").param("username", "form-intruder").param("password", "g")
                .with(csrf()).with(from("10.66.2.2"))).andReturn().getResponse().getStatus();
        assertThat(locked).isEqualTo(429);
        var admin = mvc.perform(post("/login").param("username", "admin").param("password", ADMIN_PASSWORD)
                .with(csrf()).with(from("10.66.2.3"))).andReturn().getResponse();
        assertThat(admin.getStatus()).isEqualTo(302);
        assertThat(admin.getRedirectedUrl()).doesNotContain("error");

        assertStillServesAndLeaksNothing();
    }
}
