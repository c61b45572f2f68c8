package io.zaris.server;

import io.netty.buffer.Unpooled;
import io.zaris.protocol.Frames;
import io.zaris.protocol.MalformedRequestException;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.protocol.ProtocolVersions;
import io.zaris.protocol.Request;
import io.zaris.protocol.RequestCodec;
import io.zaris.security.LoginSession;
import java.util.Arrays;

/**
 * Predicts what a node's data port does with raw bytes, from the node's own framing rule and decoder, so a
 * fuzz test knows whether a connection must survive or be closed. Mirrors the bad-input policy of
 * {@link ServerConnectionHandler}:
 * <ul>
 *   <li>a length prefix that is negative, or makes the frame (prefix included) longer than
 *   {@link ProtocolLimits#maxFrameBytes()}, closes the connection as soon as it is read;</li>
 *   <li>before the handshake, anything but a decodable HELLO with the right magic and a version the node still
 *   speaks (a newer one is answered with the node's own) closes it;</li>
 *   <li>after the handshake and a login, a payload the decoder cannot answer, or the last allowed failed login,
 *   closes it; every other frame is answered (or dropped once its deadline passed).</li>
 * </ul>
 * Pure.
 */
final class FrameStreamOracle {

    private FrameStreamOracle() {
    }

    /**
     * What a logged-in connection does with {@code stream}.
     *
     * @param closes        whether the node closes the connection for bad input
     * @param missingBytes  when it does not: bytes the stream's last, unfinished frame (or length prefix) still
     *                      lacks, 0 when the stream ends on a frame boundary
     * @param failedLogins  failed logins on the connection after the stream's complete frames
     */
    record Prediction(boolean closes, int missingBytes, int failedLogins) {
    }

    static Prediction afterLogin(byte[] stream, ProtocolLimits limits, int failedLoginsBefore) {
        int position = 0;
        int failedLogins = failedLoginsBefore;
        while (true) {
            int remaining = stream.length - position;
            if (remaining < Frames.LENGTH_PREFIX_BYTES) {
                return new Prediction(false, remaining == 0 ? 0 : Frames.LENGTH_PREFIX_BYTES - remaining, failedLogins);
            }
            int length = readInt(stream, position);
            if (!fitsTheFrameLimit(length, limits)) {
                return new Prediction(true, 0, failedLogins);
            }
            int available = remaining - Frames.LENGTH_PREFIX_BYTES;
            if (available < length) {
                return new Prediction(false, length - available, failedLogins);
            }
            int start = position + Frames.LENGTH_PREFIX_BYTES;
            byte[] payload = Arrays.copyOfRange(stream, start, start + length);
            position = start + length;
            try {
                Request request = RequestCodec.decode(Unpooled.wrappedBuffer(payload), limits).request();
                // No fuzzed AUTH carries a right password.
                if (request instanceof Request.Auth && ++failedLogins >= LoginSession.MAX_FAILURES_PER_CONNECTION) {
                    return new Prediction(true, 0, failedLogins);
                }
            } catch (MalformedRequestException e) {
                if (!e.isAnswerable()) {
                    return new Prediction(true, 0, failedLogins);
                }
            }
        }
    }

    /** Whether a fresh connection whose first frame carries {@code payload} completes the handshake. */
    static boolean acceptsHello(byte[] payload, ProtocolLimits limits) {
        if (!fitsTheFrameLimit(payload.length, limits)) {
            return false;
        }
        try {
            return RequestCodec.decode(Unpooled.wrappedBuffer(payload), limits).request() instanceof Request.Hello hello
                    && hello.magic() == RequestCodec.MAGIC
                    && hello.protocolVersion() >= ProtocolVersions.OLDEST_SUPPORTED;
        } catch (MalformedRequestException e) {
            return false;
        }
    }

    /** The node's frame decoder limits the whole frame, its length prefix included. */
    private static boolean fitsTheFrameLimit(int length, ProtocolLimits limits) {
        return length >= 0 && (long) length + Frames.LENGTH_PREFIX_BYTES <= limits.maxFrameBytes();
    }

    private static int readInt(byte[] bytes, int at) {
        return (bytes[at] & 0xFF) << 24 | (bytes[at + 1] & 0xFF) << 16 | (bytes[at + 2] & 0xFF) << 8 | (bytes[at + 3] & 0xFF);
    }
}
