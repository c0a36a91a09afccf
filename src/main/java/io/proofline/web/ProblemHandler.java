package io.proofline.web;

import io.proofline.service.BusyException;
import io.proofline.service.ConflictException;
import io.proofline.service.ForbiddenException;
import io.proofline.service.InvalidFieldException;
import io.proofline.service.NotFoundException;
import io.proofline.service.QuotaExceededException;
import io.proofline.service.ServiceException;
import io.proofline.service.TooLargeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.multipart.MaxUploadSizeExceededException;
import org.springframework.web.multipart.MultipartException;
import org.springframework.web.multipart.support.MissingServletRequestPartException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import tools.jackson.databind.DatabindException;

import java.util.stream.Collectors;

/**
 * Every error as an RFC 9457 {@code application/problem+json} with a {@code field} property naming the request
 * field at fault (where there is one).
 */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {

    private static final Logger LOG = LoggerFactory.getLogger(ProblemHandler.class);

    @ExceptionHandler(ServiceException.class)
    ResponseEntity<ProblemDetail> service(ServiceException e) {
        HttpStatus status = switch (e) {
            case NotFoundException n -> HttpStatus.NOT_FOUND;
            case InvalidFieldException i -> i.unprocessable() ? HttpStatus.UNPROCESSABLE_CONTENT : HttpStatus.BAD_REQUEST;
            case ConflictException c -> HttpStatus.CONFLICT;
            case TooLargeException t -> HttpStatus.CONTENT_TOO_LARGE;
            case BusyException b -> b.draining() ? HttpStatus.SERVICE_UNAVAILABLE : HttpStatus.TOO_MANY_REQUESTS;
            case QuotaExceededException q -> q.forbidden() ? HttpStatus.FORBIDDEN : HttpStatus.TOO_MANY_REQUESTS;
            case ForbiddenException f -> HttpStatus.FORBIDDEN;
        };
        ResponseEntity.BodyBuilder response = ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON);
        if (e instanceof BusyException busy) {
            response.header(HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, busy.retryAfter().toSeconds())));
        }
        ProblemDetail body = problem(status, e.getMessage(), e.field());
        if (e instanceof QuotaExceededException quota) {
            if (quota.retryAfter() != null) {
                response.header(HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, quota.retryAfter().toSeconds())));
            }
            body.setProperty("limit", quota.limit());
            body.setProperty("limitValue", quota.limitValue());
            body.setProperty("usage", quota.usage());
        }
        return response.body(body);
    }

    @Override
    protected ResponseEntity<Object> handleMaxUploadSizeExceededException(MaxUploadSizeExceededException e,
                                                                          HttpHeaders headers, HttpStatusCode status,
                                                                          WebRequest request) {
        return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem(HttpStatus.CONTENT_TOO_LARGE, "the upload is larger than the limit", "body"));
    }

    @ExceptionHandler(MultipartException.class)
    ResponseEntity<ProblemDetail> multipart(MultipartException e) {
        return ResponseEntity.badRequest().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem(HttpStatus.BAD_REQUEST, "malformed multipart request: " + e.getMessage(), "body"));
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ResponseEntity<ProblemDetail> typeMismatch(MethodArgumentTypeMismatchException e) {
        return ResponseEntity.badRequest().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem(HttpStatus.BAD_REQUEST, e.getName() + " has the wrong type", e.getName()));
    }

    @ExceptionHandler(RequestTooLargeException.class)
    ResponseEntity<ProblemDetail> requestTooLarge(RequestTooLargeException e) {
        return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem(HttpStatus.CONTENT_TOO_LARGE, e.getMessage(), "body"));
    }

    @ExceptionHandler(BodyReadTimeoutException.class)
    ResponseEntity<ProblemDetail> bodyReadTimeout(BodyReadTimeoutException e) {
        return ResponseEntity.status(HttpStatus.REQUEST_TIMEOUT).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem(HttpStatus.REQUEST_TIMEOUT, e.getMessage(), "body"));
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> unexpected(Exception e) {
        if (e.getCause() instanceof RequestTooLargeException tooLarge) {
            return requestTooLarge(tooLarge);
        }
        if (e.getCause() instanceof BodyReadTimeoutException slow) {
            return bodyReadTimeout(slow);
        }
        LOG.error("unexpected error", e);
        return ResponseEntity.internalServerError().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem(HttpStatus.INTERNAL_SERVER_ERROR, "internal error", null));
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e, HttpHeaders headers,
                                                                  HttpStatusCode status, WebRequest request) {
        Throwable cause = e;
        while (cause != null && !(cause instanceof RequestTooLargeException)
                && !(cause instanceof BodyReadTimeoutException)) {
            cause = cause.getCause();
        }
        if (cause != null) {
            HttpStatus refusal = cause instanceof RequestTooLargeException ? HttpStatus.CONTENT_TOO_LARGE
                    : HttpStatus.REQUEST_TIMEOUT;
            return ResponseEntity.status(refusal).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .body(problem(refusal, cause.getMessage(), "body"));
        }
        String field = "body";
        String detail = "the body is not valid JSON for this request";
        if (e.getCause() instanceof DatabindException d && !d.getPath().isEmpty()) {
            field = d.getPath().stream().map(r -> r.getPropertyName() != null ? r.getPropertyName()
                    : "[" + r.getIndex() + "]").collect(Collectors.joining(".")).replace(".[", "[");
            detail = field + " has the wrong type or shape";
        }
        return ResponseEntity.badRequest().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem(HttpStatus.BAD_REQUEST, detail, field));
    }

    @Override
    protected ResponseEntity<Object> handleMissingServletRequestPart(MissingServletRequestPartException e,
                                                                     HttpHeaders headers, HttpStatusCode status,
                                                                     WebRequest request) {
        return ResponseEntity.badRequest().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem(HttpStatus.BAD_REQUEST, "part '" + e.getRequestPartName() + "' is required",
                        e.getRequestPartName()));
    }

    @Override
    protected ResponseEntity<Object> handleMissingServletRequestParameter(MissingServletRequestParameterException e,
                                                                          HttpHeaders headers, HttpStatusCode status,
                                                                          WebRequest request) {
        return ResponseEntity.badRequest().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem(HttpStatus.BAD_REQUEST, "'" + e.getParameterName() + "' is required",
                        e.getParameterName()));
    }

    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception ex, Object body, HttpHeaders headers,
                                                             HttpStatusCode statusCode, WebRequest request) {
        ResponseEntity<Object> response = super.handleExceptionInternal(ex, body, headers, statusCode, request);
        if (response != null && response.getBody() instanceof ProblemDetail p && p.getProperties() == null) {
            p.setProperty("field", null);
        }
        return response;
    }

    static ProblemDetail problem(HttpStatusCode status, String detail, String field) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(status, detail);
        p.setProperty("field", field);
        return p;
    }
}
