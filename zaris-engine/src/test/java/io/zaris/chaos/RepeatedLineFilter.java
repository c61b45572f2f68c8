package io.zaris.chaos;

import java.util.Objects;

/**
 * Decides whether a log line that may repeat many times in a row is worth writing: a line is written when it
 * differs from the last one written, or when the same line was last written at least {@code quietNanos} ago.
 * The nemesis retries a deferred fault every second, and its unchanged reason filled the log once per try.
 *
 * <p>Not thread-safe: the nemesis calls it under its own lock and passes in the time (its clock, in nanoseconds).
 */
final class RepeatedLineFilter {

    private final long quietNanos;
    private String lastLine;
    private long lastWrittenNanos;

    RepeatedLineFilter(long quietNanos) {
        if (quietNanos <= 0) {
            throw new IllegalArgumentException("quiet time must be positive but was " + quietNanos + " ns");
        }
        this.quietNanos = quietNanos;
    }

    /** Whether to write {@code line} at {@code now}; a {@code true} answer counts as written. */
    boolean shouldLog(String line, long now) {
        Objects.requireNonNull(line, "line");
        if (line.equals(lastLine) && now - lastWrittenNanos < quietNanos) {
            return false;
        }
        lastLine = line;
        lastWrittenNanos = now;
        return true;
    }
}
