package io.zaris.security;

import java.time.Duration;

/**
 * Per-connection bounds on what a node buffers for a client that does not read its replies. Above
 * {@code highWaterMarkBytes} of unsent replies the connection turns unwritable and the node stops reading
 * its requests (back-pressure); below {@code lowWaterMarkBytes} it reads again. A connection that stays
 * unwritable for {@code maxUnwritable} is closed, with a log line: the node never holds more than about
 * the high water mark plus one reply per such client, and not for long.
 */
public record OutboundLimits(int lowWaterMarkBytes, int highWaterMarkBytes, Duration maxUnwritable) {

    public static final int DEFAULT_LOW_WATER_MARK = 256 * 1024;
    public static final int DEFAULT_HIGH_WATER_MARK = 4 * 1024 * 1024;
    /** Long enough for a slow but live client on a bad network, short enough not to hold memory forever. */
    public static final Duration DEFAULT_MAX_UNWRITABLE = Duration.ofSeconds(30);

    public OutboundLimits {
        if (lowWaterMarkBytes < 1 || highWaterMarkBytes < lowWaterMarkBytes) {
            throw new IllegalArgumentException("need 1 <= lowWaterMarkBytes <= highWaterMarkBytes but got "
                    + lowWaterMarkBytes + " and " + highWaterMarkBytes);
        }
        if (maxUnwritable == null || maxUnwritable.isNegative() || maxUnwritable.isZero()) {
            throw new IllegalArgumentException("maxUnwritable must be positive but was " + maxUnwritable);
        }
    }

    public static OutboundLimits defaults() {
        return new OutboundLimits(DEFAULT_LOW_WATER_MARK, DEFAULT_HIGH_WATER_MARK, DEFAULT_MAX_UNWRITABLE);
    }
}
