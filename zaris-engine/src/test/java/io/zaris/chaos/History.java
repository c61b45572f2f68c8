package io.zaris.chaos;

import io.zaris.model.AckMode;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything a chaos run recorded that the checker judges: the operations in the order they were recorded
 * (not necessarily by time), the acknowledged ASYNC writes the clients were told a takeover lost, and the
 * failed attempts the clients retried by themselves.
 *
 * @param ackMode          how the cluster acknowledged writes; only under {@link AckMode#ASYNC} may a named loss
 *                         excuse anything
 * @param ops              every operation, including the reads of every written key after healing
 * @param namedLosses      the lost writes the clients named, each as {@link #lossName key@revision}
 * @param retriedAttempts  failed attempts the clients retried without telling the caller, by kind
 * @param watches          what the key watches of the run were handed
 */
record History(AckMode ackMode, List<Op> ops, Set<String> namedLosses, Map<Reply, Long> retriedAttempts,
               Watches watches) {

    History {
        ops = List.copyOf(ops);
        namedLosses = Set.copyOf(namedLosses);
        retriedAttempts = byKind(retriedAttempts);
    }

    /** A history without key watches. */
    History(AckMode ackMode, List<Op> ops, Set<String> namedLosses, Map<Reply, Long> retriedAttempts) {
        this(ackMode, ops, namedLosses, retriedAttempts, Watches.NONE);
    }

    /**
     * The key watches of a run.
     *
     * @param segmentCount the cluster's segments, which a gap notice names (0 when there were no watches)
     * @param spans        each watch: its client, prefix, and when it was live and closed
     * @param events       what the watches were handed, each watcher's in delivery order
     */
    record Watches(int segmentCount, List<WatchEvent.Span> spans, List<WatchEvent> events) {

        static final Watches NONE = new Watches(0, List.of(), List.of());

        Watches {
            spans = List.copyOf(spans);
            events = List.copyOf(events);
        }
    }

    /** An unmodifiable copy of counts by reply kind, iterated in the kinds' order. */
    static Map<Reply, Long> byKind(Map<Reply, Long> counts) {
        Map<Reply, Long> copy = new EnumMap<>(Reply.class);
        copy.putAll(counts);
        return Collections.unmodifiableMap(copy);
    }

    /** How a lost write is named: the key and the revision its acknowledgement named, as the client reports it. */
    static String lossName(String key, long revision) {
        return key + "@" + revision;
    }
}
