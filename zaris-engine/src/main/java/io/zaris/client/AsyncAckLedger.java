package io.zaris.client;

import io.zaris.protocol.TakeoverRevisions;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The client's most recent acknowledgements of ASYNC writes (acknowledged before any replica applied
 * them), kept so that when a node takes a partition over and publishes what it inherited, the client can
 * name exactly which of them were lost. SYNC acknowledgements are not kept: they survive by construction.
 *
 * <p>A ring of fixed capacity: the oldest acknowledgement is forgotten first; an acknowledgement older
 * than the ring cannot be named (the replication lag that makes a loss window is far shorter than what
 * the default capacity covers at any realistic write rate). A write reported lost leaves the ring.
 *
 * <p>Concurrency: recorded from the connections' event loops, checked from the one that received the
 * takeover; every access holds the ring's monitor for O(1) (record) or O(capacity) (check, rare).
 */
final class AsyncAckLedger {

    private final byte[][] keys;
    private final int[] segments;
    private final int[] partitions;
    private final long[] epochs;
    private final long[] revisions;
    /** The newest takeover per partition: an acknowledgement that arrives after it is checked on arrival. */
    private final Map<Integer, TakeoverRevisions> latestTakeovers = new HashMap<>();
    /** Next slot to write; slots [0, size) hold entries, the oldest at {@code next} once full. */
    private int next;
    private int size;

    AsyncAckLedger(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("ASYNC acknowledgement history must be >= 0 but was " + capacity);
        }
        this.keys = new byte[capacity][];
        this.segments = new int[capacity];
        this.partitions = new int[capacity];
        this.epochs = new long[capacity];
        this.revisions = new long[capacity];
    }

    /**
     * Records an ASYNC acknowledgement; returns it as lost at once when a takeover of its partition that it
     * did not survive was already published (its response raced the takeover), else {@code null}.
     */
    synchronized LostWrite record(byte[] key, int partition, int segment, long epoch, long revision) {
        TakeoverRevisions takeover = latestTakeovers.get(partition);
        if (takeover != null) {
            long inherited = takeover.inheritedRevision(segment);
            if (LostWrite.isLost(epoch, revision, takeover.epoch(), inherited)) {
                return new LostWrite(new String(key, StandardCharsets.UTF_8), partition, segment, epoch, revision,
                        takeover.epoch(), inherited);
            }
        }
        if (keys.length == 0) {
            return null;
        }
        keys[next] = key;
        partitions[next] = partition;
        segments[next] = segment;
        epochs[next] = epoch;
        revisions[next] = revision;
        next = (next + 1) % keys.length;
        size = Math.min(size + 1, keys.length);
        return null;
    }

    /** Removes and returns the recorded acknowledgements the takeover shows lost. */
    synchronized List<LostWrite> lostTo(TakeoverRevisions takeover) {
        TakeoverRevisions known = latestTakeovers.get(takeover.partition());
        if (known == null || known.epoch() < takeover.epoch()) {
            latestTakeovers.put(takeover.partition(), takeover);
        }
        List<LostWrite> lost = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            if (keys[i] == null || partitions[i] != takeover.partition()) {
                continue;
            }
            long inherited = takeover.inheritedRevision(segments[i]);
            if (LostWrite.isLost(epochs[i], revisions[i], takeover.epoch(), inherited)) {
                lost.add(new LostWrite(new String(keys[i], StandardCharsets.UTF_8), partitions[i], segments[i], epochs[i],
                        revisions[i], takeover.epoch(), inherited));
                keys[i] = null;
            }
        }
        return lost;
    }

    synchronized int size() {
        int held = 0;
        for (int i = 0; i < size; i++) {
            if (keys[i] != null) {
                held++;
            }
        }
        return held;
    }
}
