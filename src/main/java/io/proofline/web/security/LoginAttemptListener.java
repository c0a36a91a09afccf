package io.proofline.web.security;

import org.springframework.context.event.EventListener;
import org.springframework.security.authentication.event.AbstractAuthenticationFailureEvent;
import org.springframework.security.authentication.event.AuthenticationSuccessEvent;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.authentication.WebAuthenticationDetails;
import org.springframework.stereotype.Component;

/**
 * Tells the {@link LoginThrottle} how each password check of the console's form login and HTTP basic ended (Spring
 * Security publishes them through the {@code AuthenticationEventPublisher} of {@link SecurityConfiguration}).
 */
@Component
class LoginAttemptListener {

    private static final String UNKNOWN_ADDRESS = "unknown";

    private final LoginThrottle throttle;

    LoginAttemptListener(LoginThrottle throttle) {
        this.throttle = throttle;
    }

    @EventListener
    void failed(AbstractAuthenticationFailureEvent event) {
        Authentication attempt = event.getAuthentication();
        throttle.failed(String.valueOf(attempt.getName()).trim(), address(attempt));
    }

    @EventListener
    void succeeded(AuthenticationSuccessEvent event) {
        throttle.succeeded(event.getAuthentication().getName());
    }

    private static String address(Authentication attempt) {
        return attempt.getDetails() instanceof WebAuthenticationDetails details && details.getRemoteAddress() != null
                ? details.getRemoteAddress() : UNKNOWN_ADDRESS;
    }
}
