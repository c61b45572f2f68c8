package io.zaris.replication;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Partitions this node has just taken over and is still catching up from their other replicas: until the
 * gate opens it neither serves them, nor syncs its replicas from them, nor evicts or expires their keys —
 * any of these would act on (or overwrite) a copy that may lack acknowledged writes a fellow replica holds.
 *
 * <p>Thread-safe: closed and opened by the catch-up (cluster events thread, then connection threads), read
 * on every data-path thread. {@link #changes()} lets readers cache decisions and notice when to redo them.
 */
public final class TakeoverGate {

    /** Partition → the epoch whose catch-up runs. */
    private final ConcurrentHashMap<Integer, Long> catchingUp = new ConcurrentHashMap<>();
    private final AtomicLong changes = new AtomicLong();

    public void close(int partition, long epoch) {
        catchingUp.put(partition, epoch);
        changes.incrementAndGet();
    }

    /** Opens the gate of {@code epoch}'s catch-up; one of a newer takeover of the partition stays closed. */
    public void open(int partition, long epoch) {
        if (catchingUp.remove(partition, epoch)) {
            changes.incrementAndGet();
        }
    }

    public boolean isCatchingUp(int partition) {
        return catchingUp.containsKey(partition);
    }

    /** Grows whenever a gate closes or opens. */
    public long changes() {
        return changes.get();
    }
}
