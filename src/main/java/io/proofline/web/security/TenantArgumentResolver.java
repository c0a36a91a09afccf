package io.proofline.web.security;

import io.proofline.service.Tenant;
import org.springframework.core.MethodParameter;
import org.springframework.security.authentication.AuthenticationCredentialsNotFoundException;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/**
 * Gives a controller method's {@link Tenant} parameter the caller: the API key that {@link ApiKeyFilter}
 * authenticated, by its name. The API chain admits no request without one, so a missing key here is a wiring error.
 */
final class TenantArgumentResolver implements HandlerMethodArgumentResolver {

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == Tenant.class;
    }

    @Override
    public Tenant resolveArgument(MethodParameter parameter, ModelAndViewContainer mav, NativeWebRequest request,
                                  WebDataBinderFactory binders) {
        Authentication auth = SecurityContextHolder.getContext().getAuthentication();
        if (auth == null || !auth.isAuthenticated() || !ApiKeyFilter.isApiKey(auth)) {
            throw new AuthenticationCredentialsNotFoundException("no API key authenticated this request");
        }
        return Tenant.apiKey(auth.getName());
    }
}
