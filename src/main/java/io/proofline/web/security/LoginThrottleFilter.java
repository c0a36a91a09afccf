package io.proofline.web.security;

import io.proofline.web.Problems;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/**
 * Refuses a login attempt (the form's {@code POST /login}, or any request with HTTP basic credentials) with 429 and
 * {@code Retry-After} while its user or address is locked out by the {@link LoginThrottle}, before the password is
 * checked. The attempts' outcomes reach the throttle through {@link LoginAttemptListener}.
 */
final class LoginThrottleFilter extends OncePerRequestFilter {

    private static final String BASIC = "Basic ";

    private final LoginThrottle throttle;

    LoginThrottleFilter(LoginThrottle throttle) {
        this.throttle = throttle;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String user = attemptedUser(request);
        if (user != null) {
            Duration wait = throttle.lockedFor(user, request.getRemoteAddr());
            if (!wait.isZero()) {
                long seconds = Math.max(1, (wait.toMillis() + 999) / 1000);
                response.setHeader("Retry-After", Long.toString(seconds));
                Problems.write(response, HttpStatus.TOO_MANY_REQUESTS,
                        "too many failed logins; try again in " + seconds + " s", "password");
                return;
            }
        }
        chain.doFilter(request, response);
    }

    /** The user a request tries to log in as, or {@code null} when it carries no credentials. */
    static String attemptedUser(HttpServletRequest request) {
        String authorization = request.getHeader("Authorization");
        if (authorization != null && authorization.regionMatches(true, 0, BASIC, 0, BASIC.length())) {
            try {
                String pair = new String(Base64.getDecoder().decode(authorization.substring(BASIC.length()).trim()),
                        StandardCharsets.UTF_8);
                int colon = pair.indexOf(':');
                return (colon < 0 ? pair : pair.substring(0, colon)).trim();
            } catch (IllegalArgumentException notBase64) {
                return null;
            }
        }
        if ("POST".equals(request.getMethod())
                && "/login".equals(request.getRequestURI().substring(request.getContextPath().length()))) {
            String user = request.getParameter("username");
            return user == null ? "" : user.trim();
        }
        return null;
    }
}
