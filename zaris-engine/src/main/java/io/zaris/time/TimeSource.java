package io.zaris.time;

/**
 * The one source of time in the engine: a monotonic reading in nanoseconds for deadlines, timeouts, leases and
 * absence timers, and a wall-clock reading in milliseconds for TTL deadlines. Injected (a node's from
 * {@code NodeConfig}, a client's from {@code ZarisClientOptions}) so that decision code runs on a fake clock in
 * tests; core code never calls {@link System#nanoTime()} or {@link System#currentTimeMillis()} itself.
 *
 * <p>Implementations are read from many threads at once and must be thread-safe. The two readings are unrelated:
 * only differences of {@link #nanoTime()} mean anything (and they wrap, so compare with {@code a - b < 0}), while
 * {@link #currentTimeMillis()} may step when the system clock is set.
 */
public interface TimeSource {

    /** Monotonic nanoseconds, as {@link System#nanoTime()}. */
    long nanoTime();

    /** Wall-clock milliseconds since the epoch, as {@link System#currentTimeMillis()}. */
    long currentTimeMillis();

    /** The system clock. */
    static TimeSource system() {
        return SystemTimeSource.INSTANCE;
    }

    /** The system clock as a singleton, so that it is never mistaken for a fake one. */
    enum SystemTimeSource implements TimeSource {
        INSTANCE;

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public long currentTimeMillis() {
            return System.currentTimeMillis();
        }
    }
}
