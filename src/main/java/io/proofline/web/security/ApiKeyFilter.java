package io.proofline.web.security;

import io.proofline.web.Problems;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.time.Duration;

/**
 * Authenticates {@code /api/**} requests by {@code X-API-Key} and limits each key's request rate
 * (Resilience4j {@link RateLimiter}, one per key). A missing or wrong key leaves the request unauthenticated
 * (the chain answers 401); a key over its rate gets 429 with {@code Retry-After}.
 */
public final class ApiKeyFilter extends OncePerRequestFilter {

    public static final String HEADER = "X-API-Key";
    /** The authority of a request authenticated by an API key. */
    static final String API_AUTHORITY = "ROLE_API";

    private final Credentials credentials;
    private final RateLimiterRegistry limiters;

    ApiKeyFilter(Credentials credentials, int requestsPerSecond) {
        this.credentials = credentials;
        this.limiters = RateLimiterRegistry.of(RateLimiterConfig.custom()
                .limitForPeriod(requestsPerSecond)
                .limitRefreshPeriod(Duration.ofSeconds(1))
                .timeoutDuration(Duration.ZERO)
                .build());
    }

    /** Whether {@code auth} is an API key's (its name is then the key's name, {@link Credentials#keyId}). */
    static boolean isApiKey(Authentication auth) {
        return auth.getAuthorities().stream().anyMatch(a -> API_AUTHORITY.equals(a.getAuthority()));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String key = request.getHeader(HEADER);
        if (credentials.isApiKey(key)) {
            String id = Credentials.keyId(key);
            if (!limiters.rateLimiter(id).acquirePermission()) {
                response.setHeader("Retry-After", "1");
                Problems.write(response, HttpStatus.TOO_MANY_REQUESTS, "rate limit of this API key exceeded", HEADER);
                return;
            }
            var auth = new UsernamePasswordAuthenticationToken(id, null, AuthorityUtils.createAuthorityList(API_AUTHORITY));
            SecurityContextHolder.getContext().setAuthentication(auth);
        }
        chain.doFilter(request, response);
    }
}
