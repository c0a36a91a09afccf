package io.proofline.web;

import jakarta.servlet.ServletException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.coyote.ActionCode;

import java.io.IOException;

/**
 * After a request with a body that was refused (408 too slow, 413 too large, but also 401 without a valid key or any
 * other error answered before the body was read), Tomcat would still read the rest of the body before sending the
 * answer, to keep the connection: for a slow sender that holds a worker thread as long as it likes (an unauthenticated
 * one too), for a large one up to {@code server.tomcat.max-swallow-size} and then drops the answer. This valve tells
 * Tomcat not to: the answer goes out at once and the connection is closed after it. A request whose body was read
 * to its end (or that had none), and any answer below 400, keeps its connection.
 */
final class RefusedBodyValve extends ValveBase {

    RefusedBodyValve() {
        super(true);
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        getNext().invoke(request, response);
        // a body left unread: what swallowing would read at the sender's pace (none for a request without a body)
        if (response.getStatus() >= 400 && !request.getCoyoteRequest().isFinished()) {
            request.getCoyoteRequest().action(ActionCode.DISABLE_SWALLOW_INPUT, null);
        }
    }
}
