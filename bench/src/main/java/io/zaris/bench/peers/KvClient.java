package io.zaris.bench.peers;

/**
 * The few operations the benchmark drives, implemented once per system through that system's own client
 * library, configured the way its documentation recommends.
 *
 * <p>Asynchronous calls report to a {@link Completion}; each implementation attaches it the way its
 * library intends callbacks to be attached (on the completing thread, never a thread per callback).
 * Blocking calls are the libraries' own synchronous APIs, used for the one-request-in-flight rows.
 */
interface KvClient extends AutoCloseable {

    /** Called once per asynchronous request: the length of the value read (or -1 when absent), or the failure. */
    @FunctionalInterface
    interface Completion {
        void complete(int valueLength, Throwable failure);
    }

    /** Length of the value read, {@code -1} if the key is absent. */
    int get(String key);

    void put(String key, byte[] value);

    /** The value stored under the key, {@code null} if absent (blocking; the failover command reads keys back with it). */
    byte[] value(String key);

    void getAsync(String key, Completion completion);

    /** Completes with the value's length once the write is acknowledged. */
    void putAsync(String key, byte[] value, Completion completion);

    @Override
    void close();
}
