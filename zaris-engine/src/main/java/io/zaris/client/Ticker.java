package io.zaris.client;

/** Monotonic nanoseconds, injected so deadline and debounce logic runs on a fake clock in tests. */
@FunctionalInterface
public interface Ticker {

    long nanoTime();

    static Ticker system() {
        return SystemTicker.INSTANCE;
    }

    enum SystemTicker implements Ticker {
        INSTANCE;

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }
    }
}
