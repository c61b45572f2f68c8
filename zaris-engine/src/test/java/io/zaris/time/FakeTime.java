package io.zaris.time;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A {@link TimeSource} that moves only when a test says so. Both readings advance together: the monotonic one
 * starts at an arbitrary origin (so code that assumes a zero origin is caught), the wall one at the given start.
 * Safe to read from any thread; a test advances it from its own.
 */
public final class FakeTime implements TimeSource {

    /** An origin far from zero, as {@link System#nanoTime()} is. */
    private static final long NANO_ORIGIN = 1_000_000_000_000L;

    private final AtomicLong elapsedNanos = new AtomicLong();
    private final long wallStartMillis;

    public FakeTime(long wallStartMillis) {
        this.wallStartMillis = wallStartMillis;
    }

    public FakeTime() {
        this(1_700_000_000_000L);
    }

    /**
     * A time source that follows a test's own reading in milliseconds (a field it sets): the wall reading is that
     * value, the monotonic one the same instant in nanoseconds.
     */
    public static TimeSource followingMillis(LongSupplier millis) {
        return new TimeSource() {
            @Override
            public long nanoTime() {
                return Math.multiplyExact(millis.getAsLong(), 1_000_000L);
            }

            @Override
            public long currentTimeMillis() {
                return millis.getAsLong();
            }
        };
    }

    /** A time source that follows a test's own reading in nanoseconds; the wall reading is derived from it. */
    public static TimeSource followingNanos(LongSupplier nanos) {
        return new TimeSource() {
            @Override
            public long nanoTime() {
                return nanos.getAsLong();
            }

            @Override
            public long currentTimeMillis() {
                return Math.floorDiv(nanos.getAsLong(), 1_000_000L);
            }
        };
    }

    public void advance(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("time does not go back: " + duration);
        }
        elapsedNanos.addAndGet(duration.toNanos());
    }

    @Override
    public long nanoTime() {
        return NANO_ORIGIN + elapsedNanos.get();
    }

    @Override
    public long currentTimeMillis() {
        return wallStartMillis + elapsedNanos.get() / 1_000_000L;
    }
}
