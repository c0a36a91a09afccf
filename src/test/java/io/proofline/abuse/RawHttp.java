package io.proofline.abuse;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;

/**
 * Requests written byte by byte on a socket, for what an ordinary client will not send: a chunked body without
 * Content-Length, a body that arrives slowly. Asks the server to close after answering, and answers the status
 * line's code and the response text.
 */
final class RawHttp {

    private RawHttp() {
    }

    /** The answer, and how many of the pieces offered were sent before the server answered or closed. */
    record Answer(int status, String text, int piecesSent) {
    }

    /**
     * Sends {@code head} (request line and headers, without the blank line), then the body in pieces with a pause
     * between them; stops sending when the server answers or closes.
     */
    static Answer send(int port, String head, byte[][] pieces, long pauseMs) throws IOException, InterruptedException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write((head + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            int sent = 0;
            for (byte[] piece : pieces) {
                if (in.available() > 0) {
                    break; // answered already
                }
                try {
                    out.write(piece);
                    out.flush();
                    sent++;
                } catch (SocketException closed) {
                    break;
                }
                Thread.sleep(pauseMs);
            }
            ByteArrayOutputStream response = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            try {
                for (int n; (n = in.read(buffer)) > 0; ) {
                    response.write(buffer, 0, n);
                }
            } catch (SocketException reset) {
                // the server may close after answering
            }
            String text = response.toString(StandardCharsets.UTF_8);
            if (!text.startsWith("HTTP/1.1 ")) {
                throw new IOException("no HTTP answer: '" + text + "'");
            }
            return new Answer(Integer.parseInt(text.substring(9, 12)), text, sent);
        }
    }

    /** One chunk of a chunked body. */
    static byte[] chunk(byte[] data) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes((Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        b.writeBytes(data);
        b.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        return b.toByteArray();
    }
}
