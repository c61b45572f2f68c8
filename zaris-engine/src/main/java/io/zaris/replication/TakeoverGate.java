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
    /** Partition → the epoch of a catch-up that is a planned hand-over (the previous active is alive). */
    private final ConcurrentHashMap<Integer, Long> planned = new ConcurrentHashMap<>();
    private final AtomicLong changes = new AtomicLong();

    /**
     * @param plannedHandOver the previous active owner is alive and hands the partition over (a heal or a
     *                        migration), rather than gone (a failover): requests are told {@code MIGRATING}
     */
    public void close(int partition, long epoch, boolean plannedHandOver) {
        if (plannedHandOver) {
            planned.put(partition, epoch);
        } else {
            planned.remove(partition);
        }
        catchingUp.put(partition, epoch);
        changes.incrementAndGet();
    }

    /** Opens the gate of {@code epoch}'s catch-up; one of a newer takeover of the partition stays closed. */
    public void open(int partition, long epoch) {
        planned.remove(partition, epoch);
        if (catchingUp.remove(partition, epoch)) {
            changes.incrementAndGet();
        }
    }

    /** Whether the partition's closed gate belongs to a planned hand-over (see {@link #close}). */
    public boolean isPlannedHandOver(int partition) {
        Long epoch = planned.get(partition);
        return epoch != null && epoch.equals(catchingUp.get(partition));
    }

    public boolean isCatchingUp(int partition) {
        return catchingUp.containsKey(partition);
    }

    /** Grows whenever a gate closes or opens. */
    public long changes() {
        return changes.get();
    }
}
