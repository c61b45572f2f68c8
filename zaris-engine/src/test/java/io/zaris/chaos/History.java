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
 */
record History(AckMode ackMode, List<Op> ops, Set<String> namedLosses, Map<Reply, Long> retriedAttempts) {

    History {
        ops = List.copyOf(ops);
        namedLosses = Set.copyOf(namedLosses);
        retriedAttempts = byKind(retriedAttempts);
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
