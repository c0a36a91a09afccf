package io.proofline.web;

import jakarta.servlet.ServletException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.coyote.ActionCode;

import java.io.IOException;
import java.util.Set;

/**
 * After a request whose body was refused (408 too slow, 413 too large), Tomcat would still read the
 * rest of the body before sending the answer, to keep the connection: for a slow sender that holds a worker thread
 * as long as it likes, for a large one up to {@code server.tomcat.max-swallow-size} and then drops the answer. This
 * valve tells Tomcat not to: the answer goes out at once and the connection is closed after it.
 */
final class RefusedBodyValve extends ValveBase {

    private static final Set<Integer> REFUSED = Set.of(408, 413);

    RefusedBodyValve() {
        super(true);
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        getNext().invoke(request, response);
        if (REFUSED.contains(response.getStatus())) {
            request.getCoyoteRequest().action(ActionCode.DISABLE_SWALLOW_INPUT, null);
        }
    }
}
