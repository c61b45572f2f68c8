package io.zaris.client;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * The deadline of one operation across all its attempts: a positive duration or {@link #INFINITE}.
 * Parses the forms {@code ZARIS_REQUEST_TIMEOUT} accepts: {@code 60s}, {@code 1500ms}, {@code 2m}, a plain
 * number of milliseconds, or {@code infinite}. Has a static {@link #valueOf(String)} so Spring binds it.
 */
public final class RequestTimeout {

    /** No deadline: an operation retries until its attempts are used up and waits as long as it takes. */
    public static final RequestTimeout INFINITE = new RequestTimeout(null);
    /** Sixty seconds, the default. */
    public static final RequestTimeout DEFAULT = new RequestTimeout(Duration.ofSeconds(60));

    private final Duration duration;

    private RequestTimeout(Duration duration) {
        this.duration = duration;
    }

    public static RequestTimeout of(Duration duration) {
        if (duration == null || duration.isZero() || duration.isNegative()) {
            throw new IllegalArgumentException("request timeout must be positive but was " + duration);
        }
        return new RequestTimeout(duration);
    }

    /** Parses {@code 60s}, {@code 1500ms}, {@code 2m}, {@code 15000} (milliseconds) or {@code infinite}. */
    public static RequestTimeout valueOf(String text) {
        String value = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        if (value.equals("infinite")) {
            return INFINITE;
        }
        try {
            if (value.endsWith("ms")) {
                return of(Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2).trim())));
            }
            if (value.endsWith("s")) {
                return of(Duration.ofSeconds(Long.parseLong(value.substring(0, value.length() - 1).trim())));
            }
            if (value.endsWith("m")) {
                return of(Duration.ofMinutes(Long.parseLong(value.substring(0, value.length() - 1).trim())));
            }
            return of(Duration.ofMillis(Long.parseLong(value)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a request timeout; use e.g. 60s, 1500ms, 2m, "
                    + "15000 (milliseconds) or infinite");
        }
    }

    public boolean isInfinite() {
        return duration == null;
    }

    /** The duration; {@code null} when infinite. */
    public Duration duration() {
        return duration;
    }

    /** The absolute deadline on the time source's scale, {@link Long#MAX_VALUE} when infinite. */
    long deadlineFrom(long nowNanos) {
        if (duration == null) {
            return Long.MAX_VALUE;
        }
        long deadline = nowNanos + duration.toNanos();
        return deadline < nowNanos ? Long.MAX_VALUE : deadline;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RequestTimeout that && Objects.equals(duration, that.duration);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(duration);
    }

    @Override
    public String toString() {
        return duration == null ? "infinite" : duration.toMillis() + "ms";
    }
}
