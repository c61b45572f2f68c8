package io.zaris.store;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A node's memory figures: bytes charged for its entries ({@link EntrySize}) and how many keys were
 * evicted or expired. Segments add their deltas under their own write locks; the total is an
 * {@link AtomicLong} because the write path compares it with the budget on every write (a
 * {@code LongAdder} sum would cost a pass over its cells each time). Thread-safe.
 */
public final class StoreMemory {

    private final AtomicLong usedBytes = new AtomicLong();
    private final LongAdder evictions = new LongAdder();
    private final LongAdder expirations = new LongAdder();

    void add(long deltaBytes) {
        usedBytes.addAndGet(deltaBytes);
    }

    void evicted() {
        evictions.increment();
    }

    void expired(int count) {
        expirations.add(count);
    }

    /** Bytes charged for every entry the node holds (active and replica segments). */
    public long usedBytes() {
        return usedBytes.get();
    }

    /** Keys removed by this node, as active owner, to stay within its budget. */
    public long evictions() {
        return evictions.sum();
    }

    /** Keys removed by this node, as active owner, because their TTL had passed (active expiry). */
    public long expirations() {
        return expirations.sum();
    }
}
