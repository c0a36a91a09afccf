package io.proofline.web;

import io.proofline.service.SecurityProperties;
import io.proofline.service.StoreProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.UsernamePasswordAuthenticationFilter;

/**
 * Two chains. {@code /api/**}: stateless, an API key in {@code X-API-Key} (401 problem+json without one), per-key
 * rate limits, bounded bodies. Everything else: the admin user (form login, or HTTP basic for scrapers) for
 * {@code /console/**} and every Actuator endpoint except health and its liveness/readiness groups, which stay open
 * for Kubernetes probes; the OpenAPI document and Swagger UI are open.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

    @Bean
    @Order(1)
    SecurityFilterChain apiChain(HttpSecurity http, Credentials credentials, SecurityProperties security,
                                 StoreProperties store) throws Exception {
        return http.securityMatcher("/api/**")
                .csrf(AbstractHttpConfigurer::disable)
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .requestCache(AbstractHttpConfigurer::disable)
                .addFilterBefore(new RequestSizeFilter(store.maxJobSize().toBytes()),
                        UsernamePasswordAuthenticationFilter.class)
                .addFilterBefore(new ApiKeyFilter(credentials, security.requestsPerSecond()),
                        UsernamePasswordAuthenticationFilter.class)
                .authorizeHttpRequests(a -> a.anyRequest().authenticated())
                .exceptionHandling(e -> e.authenticationEntryPoint((request, response, failure) ->
                        Problems.write(response, HttpStatus.UNAUTHORIZED, "a valid X-API-Key header is required",
                                ApiKeyFilter.HEADER)))
                .build();
    }

    @Bean
    @Order(2)
    SecurityFilterChain adminChain(HttpSecurity http) throws Exception {
        return http
                .authorizeHttpRequests(a -> a
                        .requestMatchers("/actuator/health", "/actuator/health/liveness",
                                "/actuator/health/readiness").permitAll()
                        .requestMatchers("/v3/api-docs", "/v3/api-docs/**", "/swagger-ui.html", "/swagger-ui/**",
                                "/error", "/login").permitAll()
                        .requestMatchers("/console/**", "/actuator/**").hasRole("ADMIN")
                        .anyRequest().permitAll())
                .formLogin(Customizer.withDefaults())
                .httpBasic(Customizer.withDefaults())
                .build();
    }

    @Bean
    PasswordEncoder passwordEncoder() {
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }

    @Bean
    UserDetailsService admin(Credentials credentials, PasswordEncoder encoder) {
        return new InMemoryUserDetailsManager(User.withUsername(credentials.adminUser())
                .password(encoder.encode(credentials.adminPassword())).roles("ADMIN").build());
    }
}
