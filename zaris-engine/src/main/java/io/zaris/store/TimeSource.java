package io.zaris.store;

/**
 * Wall-clock milliseconds for TTL deadlines. Injected so expiry logic is tested with a fake clock; core
 * code never calls {@link System#currentTimeMillis()} itself.
 */
@FunctionalInterface
public interface TimeSource {

    long currentTimeMillis();

    /** The system clock. */
    static TimeSource system() {
        return SystemTimeSource.INSTANCE;
    }

    enum SystemTimeSource implements TimeSource {
        INSTANCE;

        @Override
        public long currentTimeMillis() {
            return System.currentTimeMillis();
        }
    }
}
