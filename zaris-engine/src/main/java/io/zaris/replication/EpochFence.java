package io.zaris.replication;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The highest epoch this node has observed per partition, from adopted views and from replicated
 * changes. Only ever grows. A replica rejects changes under an older epoch (the sender was superseded),
 * and an active owner that learns of a newer epoch than its own stops accepting writes for the
 * partition until it adopts the view that explains it.
 *
 * <p>Thread-safe: one {@link AtomicLongArray} slot per partition, raised with compare-and-set.
 */
public final class EpochFence {

    private final AtomicLongArray highest;

    public EpochFence(int partitionCount) {
        this.highest = new AtomicLongArray(partitionCount);
    }

    /** Records an observed epoch; returns the highest known afterwards. */
    public long observe(int partition, long epoch) {
        while (true) {
            long current = highest.get(partition);
            if (epoch <= current) {
                return current;
            }
            if (highest.compareAndSet(partition, current, epoch)) {
                return epoch;
            }
        }
    }

    /** Partitions this fence covers. */
    public int partitionCount() {
        return highest.length();
    }

    public long highest(int partition) {
        return highest.get(partition);
    }

    /** Whether a change or request under {@code epoch} is superseded. */
    public boolean isStale(int partition, long epoch) {
        return epoch < highest.get(partition);
    }
}
