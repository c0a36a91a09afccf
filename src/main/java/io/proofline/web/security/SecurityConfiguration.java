package io.proofline.web.security;

import io.proofline.web.Problems;
import io.proofline.web.BodyLimits;
import io.proofline.web.BoundedBodyFilter;
import io.proofline.service.config.SecurityProperties;
import io.proofline.service.config.StoreProperties;
import io.proofline.service.config.UploadProperties;
import jakarta.servlet.DispatcherType;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.security.authentication.AuthenticationEventPublisher;
import org.springframework.security.authentication.DefaultAuthenticationEventPublisher;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.annotation.web.configurers.HeadersConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.UsernamePasswordAuthenticationFilter;
import org.springframework.security.web.header.writers.DelegatingRequestMatcherHeaderWriter;
import org.springframework.security.web.header.writers.StaticHeadersWriter;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

import java.time.Clock;

/**
 * Two chains. {@code /api/**}: stateless, an API key in {@code X-API-Key} (401 problem+json without one), per-key
 * rate limits, bounded bodies. Everything else: the admin user (form login, or HTTP basic for scrapers) for
 * {@code /console/**} and every Actuator endpoint except health and its liveness/readiness groups, which stay open
 * for Kubernetes probes; the optional metrics user reads {@code /actuator/prometheus} only; the OpenAPI document and
 * Swagger UI are open. Failed logins are throttled ({@link LoginThrottle}); the console's pages and the login page
 * carry a content security policy and may not be framed.
 */
@Configuration(proxyBeanMethods = false)
public class SecurityConfiguration {

    static final String ADMIN = "ADMIN";
    static final String METRICS = "METRICS";
    /**
     * The console serves its scripts, styles and fonts itself and renders bars with style attributes (hence inline
     * styles, but no inline script); forms post only to itself, and no page may frame it.
     */
    static final String CONSOLE_POLICY = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            + "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
            + "frame-ancestors 'none'";

    @Bean
    @Order(1)
    SecurityFilterChain apiChain(HttpSecurity http, Credentials credentials, SecurityProperties security,
                                 StoreProperties store, UploadProperties uploads) throws Exception {
        return http.securityMatcher("/api/**")
                .csrf(AbstractHttpConfigurer::disable)
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .requestCache(AbstractHttpConfigurer::disable)
                .addFilterBefore(new ApiKeyFilter(credentials, security.requestsPerSecond()),
                        UsernamePasswordAuthenticationFilter.class)
                // after the key is known: a body takes its key's upload slot, and one without a valid key none
                .addFilterAfter(new BoundedBodyFilter(BodyLimits.of(store), uploads.concurrent(),
                        uploads.concurrentPerKey(), uploads.idleTimeout().toMillis()), ApiKeyFilter.class)
                // An async dispatch only writes the answer of a request that was authenticated and authorized when it
                // came in (a job wait, an event stream); the stateless chain has no context to find for it again.
                .authorizeHttpRequests(a -> a.dispatcherTypeMatchers(DispatcherType.ASYNC).permitAll()
                        .anyRequest().authenticated())
                .exceptionHandling(e -> e.authenticationEntryPoint((request, response, failure) ->
                        Problems.write(response, HttpStatus.UNAUTHORIZED, "a valid X-API-Key header is required",
                                ApiKeyFilter.HEADER)))
                .build();
    }

    @Bean
    @Order(2)
    SecurityFilterChain adminChain(HttpSecurity http, LoginThrottle throttle) throws Exception {
        RequestMatcher pages = new OrRequestMatcher(PathPatternRequestMatcher.withDefaults().matcher("/console/**"),
                PathPatternRequestMatcher.withDefaults().matcher("/login"));
        return http
                .addFilterBefore(new LoginThrottleFilter(throttle), UsernamePasswordAuthenticationFilter.class)
                .authorizeHttpRequests(a -> a
                        .requestMatchers("/actuator/health", "/actuator/health/liveness",
                                "/actuator/health/readiness").permitAll()
                        .requestMatchers("/v3/api-docs", "/v3/api-docs/**", "/swagger-ui.html", "/swagger-ui/**",
                                "/error", "/login").permitAll()
                        .requestMatchers("/actuator/prometheus").hasAnyRole(ADMIN, METRICS)
                        .requestMatchers("/console/**", "/actuator/**").hasRole(ADMIN)
                        .anyRequest().permitAll())
                .headers(h -> h
                        .frameOptions(HeadersConfigurer.FrameOptionsConfig::deny)
                        .contentTypeOptions(Customizer.withDefaults())
                        .addHeaderWriter(new DelegatingRequestMatcherHeaderWriter(pages,
                                new StaticHeadersWriter("Content-Security-Policy", CONSOLE_POLICY))))
                .formLogin(Customizer.withDefaults())
                .httpBasic(Customizer.withDefaults())
                .build();
    }

    @Bean
    LoginThrottle loginThrottle(SecurityProperties security) {
        return new LoginThrottle(security.loginAttempts(), security.loginLockout(), Clock.systemUTC());
    }

    /** Publishes each password check's outcome, which {@link LoginAttemptListener} feeds to the throttle. */
    @Bean
    AuthenticationEventPublisher authenticationEventPublisher(ApplicationEventPublisher events) {
        return new DefaultAuthenticationEventPublisher(events);
    }

    @Bean
    PasswordEncoder passwordEncoder() {
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }

    @Bean
    UserDetailsService users(Credentials credentials, SecurityProperties security, PasswordEncoder encoder) {
        var users = new InMemoryUserDetailsManager(User.withUsername(credentials.adminUser())
                .password(encoder.encode(credentials.adminPassword())).roles(ADMIN).build());
        String metricsPassword = security.metricsPassword();
        if (metricsPassword != null && !metricsPassword.isBlank()) {
            if (security.metricsUser().equals(credentials.adminUser())) {
                throw new IllegalStateException("proofline.security.metrics-user must differ from the admin user");
            }
            users.createUser(User.withUsername(security.metricsUser()).password(encoder.encode(metricsPassword))
                    .roles(METRICS).build());
        }
        return users;
    }
}
