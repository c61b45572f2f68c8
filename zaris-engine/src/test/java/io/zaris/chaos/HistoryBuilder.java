package io.zaris.chaos;

import io.zaris.model.AckMode;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Synthetic histories for the checker's own tests. Times are whole seconds of a virtual clock ({@code from},
 * {@code to}: invocation and completion). An acknowledged PUT, DELETE or CAS takes the key's next revision,
 * starting at 1, as a node would hand out; a refused or indeterminate one takes none. A PUT or CAS records
 * its revision; a DELETE records none, as with the real API.
 */
final class HistoryBuilder {

    private static final long SECOND = 1_000_000_000L;

    private final AckMode ackMode;
    private final List<Op> ops = new ArrayList<>();
    private final Set<String> namedLosses = new HashSet<>();
    private final Map<String, Long> revisions = new HashMap<>();
    private final Map<Reply, Long> retried = new EnumMap<>(Reply.class);

    HistoryBuilder(AckMode ackMode) {
        this.ackMode = ackMode;
    }

    /** An acknowledged PUT. */
    HistoryBuilder put(int client, String key, String value, long from, long to) {
        return put(client, key, value, from, to, Reply.OK, false);
    }

    /** A PUT that got {@code reply}; {@code ambiguousAttemptBefore}: an earlier attempt of it timed out. */
    HistoryBuilder put(int client, String key, String value, long from, long to, Reply reply,
                       boolean ambiguousAttemptBefore) {
        if (ambiguousAttemptBefore) {
            retried.merge(Reply.TIMEOUT, 1L, Long::sum);
        }
        ops.add(new Op.Write(client, key, value, revisionIf(key, reply == Reply.OK), from * SECOND, to * SECOND, reply,
                ambiguousAttemptBefore));
        return this;
    }

    /** A DELETE that got {@code reply}. Its revision is not known, as with the real API. */
    HistoryBuilder delete(int client, String key, long from, long to, Reply reply) {
        revisionIf(key, reply == Reply.OK);
        ops.add(new Op.Write(client, key, null, -1, from * SECOND, to * SECOND, reply, false));
        return this;
    }

    /** An answered read during the run ({@code value} {@code null}: absent). */
    HistoryBuilder read(int client, String key, String value, long from, long to) {
        ops.add(new Op.Read(client, key, value, false, from * SECOND, to * SECOND,
                value == null ? Reply.NOT_FOUND : Reply.OK));
        return this;
    }

    /** A read during the run that failed with {@code reply}. */
    HistoryBuilder failedRead(int client, String key, long from, long to, Reply reply) {
        ops.add(new Op.Read(client, key, null, false, from * SECOND, to * SECOND, reply));
        return this;
    }

    /** An answered read once the cluster healed. */
    HistoryBuilder readAfterHealing(String key, String value, long from, long to) {
        ops.add(new Op.Read(99, key, value, true, from * SECOND, to * SECOND,
                value == null ? Reply.NOT_FOUND : Reply.OK));
        return this;
    }

    /** A CAS replacing {@code expected} by {@code value} that got {@code reply} (OK: applied). */
    HistoryBuilder cas(int client, String key, String expected, String value, long from, long to, Reply reply) {
        ops.add(new Op.Cas(client, key, expected, value, revisionIf(key, reply == Reply.OK), from * SECOND,
                to * SECOND, reply, false));
        return this;
    }

    /** An acknowledged increment by {@code delta} that returned {@code result}. */
    HistoryBuilder increment(int client, String key, long delta, long result, long from, long to) {
        ops.add(new Op.Increment(client, key, delta, result, revisionIf(key, true), from * SECOND, to * SECOND,
                Reply.OK, false));
        return this;
    }

    /** An increment by {@code delta} that failed with {@code reply}. */
    HistoryBuilder failedIncrement(int client, String key, long delta, long from, long to, Reply reply) {
        ops.add(new Op.Increment(client, key, delta, 0, -1, from * SECOND, to * SECOND, reply, false));
        return this;
    }

    /** The client was told this acknowledged write of {@code key} was lost. */
    HistoryBuilder namedLoss(String key, long revision) {
        namedLosses.add(History.lossName(key, revision));
        return this;
    }

    History build() {
        return new History(ackMode, ops, namedLosses, retried);
    }

    private long revisionIf(String key, boolean acknowledged) {
        return acknowledged ? revisions.merge(key, 1L, Long::sum) : -1;
    }
}
