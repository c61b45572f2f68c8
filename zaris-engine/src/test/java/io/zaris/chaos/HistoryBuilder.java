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
    /** The segments of the synthetic cluster, which gap notices name. */
    static final int SEGMENTS = 512;

    private final AckMode ackMode;
    private final List<Op> ops = new ArrayList<>();
    private final Set<String> namedLosses = new HashSet<>();
    private final Map<String, Long> revisions = new HashMap<>();
    private final Map<Reply, Long> retried = new EnumMap<>(Reply.class);
    private final List<WatchEvent.Span> watchSpans = new ArrayList<>();
    private final List<WatchEvent> watchEvents = new ArrayList<>();

    HistoryBuilder(AckMode ackMode) {
        this.ackMode = ackMode;
    }

    /**
     * The history a read rule is shown against (SYNC): client 0's acknowledged PUTs of {@code key}, 'w0:0' over
     * [1, 2] and 'w0:1' over [3, 4], and 'w0:1' read back after healing at 100; the caller adds the read it judges.
     */
    static HistoryBuilder overwritten(String key) {
        return new HistoryBuilder(AckMode.SYNC)
                .put(0, key, "w0:0", 1, 2)
                .put(0, key, "w0:1", 3, 4)
                .readAfterHealing(key, "w0:1", 100, 101);
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
        ops.add(new Op.Read(client, key, value, false, false, from * SECOND, to * SECOND,
                value == null ? Reply.NOT_FOUND : Reply.OK));
        return this;
    }

    /** A read during the run that the client's near cache answered (it always holds a value). */
    HistoryBuilder localRead(int client, String key, String value, long from, long to) {
        ops.add(new Op.Read(client, key, value, false, true, from * SECOND, to * SECOND, Reply.OK));
        return this;
    }

    /** A watch of {@code prefix} by {@code watcher}, live from {@code live} until closed at {@code closed}. */
    HistoryBuilder watch(int watcher, String prefix, long live, long closed) {
        watchSpans.add(new WatchEvent.Span(watcher, prefix, live * SECOND, closed * SECOND));
        return this;
    }

    /** {@code watcher} was handed a change of {@code key} to {@code version} at {@code at}. */
    HistoryBuilder watched(int watcher, String key, long version, boolean deleted, long at) {
        watchEvents.add(new WatchEvent.Change(watcher, key, version, deleted, at * SECOND));
        return this;
    }

    /** {@code watcher} was told of a gap at {@code at}. */
    HistoryBuilder gap(int watcher, io.zaris.client.WatchGap.Reason reason, int segment, long after, long upTo, long at) {
        watchEvents.add(new WatchEvent.Gap(watcher, reason, segment, after, upTo, at * SECOND));
        return this;
    }

    /** A read during the run that failed with {@code reply}. */
    HistoryBuilder failedRead(int client, String key, long from, long to, Reply reply) {
        ops.add(new Op.Read(client, key, null, false, false, from * SECOND, to * SECOND, reply));
        return this;
    }

    /** An answered read once the cluster healed. */
    HistoryBuilder readAfterHealing(String key, String value, long from, long to) {
        ops.add(new Op.Read(99, key, value, true, false, from * SECOND, to * SECOND,
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

    /**
     * An acknowledged increment of {@code target} by {@code delta} that returned {@code result}; a ZINCRBY names no
     * revision, as with the real API.
     */
    HistoryBuilder increment(int client, String key, Op.Increment.Target target, long delta, long result, long from,
                             long to) {
        long revision = target == Op.Increment.Target.SORTED_SET_SCORE ? -1 : revisionIf(key, true);
        ops.add(new Op.Increment(client, key, delta, result, revision, from * SECOND, to * SECOND, Reply.OK, false,
                target));
        return this;
    }

    /** An SADD of {@code member} that got {@code reply}. */
    HistoryBuilder setAdd(int client, String key, String member, long from, long to, Reply reply) {
        ops.add(new Op.SetAdd(client, key, member, from * SECOND, to * SECOND, reply, false));
        return this;
    }

    /** An answered SMEMBERS during the run. */
    HistoryBuilder setRead(int client, String key, Set<String> members, long from, long to) {
        ops.add(new Op.SetRead(client, key, members, false, from * SECOND, to * SECOND, Reply.OK));
        return this;
    }

    /** An answered SMEMBERS once the cluster healed. */
    HistoryBuilder setReadAfterHealing(String key, Set<String> members, long from, long to) {
        ops.add(new Op.SetRead(99, key, members, true, from * SECOND, to * SECOND, Reply.OK));
        return this;
    }

    /** An RPUSH of {@code element} that got {@code reply}. */
    HistoryBuilder push(int client, String key, String element, long from, long to, Reply reply) {
        ops.add(new Op.Push(client, key, element, from * SECOND, to * SECOND, reply, false));
        return this;
    }

    /** An LPOP that took {@code element} ({@code null}: found the list empty). */
    HistoryBuilder pop(int client, String key, String element, long from, long to) {
        ops.add(new Op.Pop(client, key, element, from * SECOND, to * SECOND,
                element == null ? Reply.NOT_FOUND : Reply.OK, false));
        return this;
    }

    /** An LPOP that failed with {@code reply}. */
    HistoryBuilder failedPop(int client, String key, long from, long to, Reply reply) {
        ops.add(new Op.Pop(client, key, null, from * SECOND, to * SECOND, reply, false));
        return this;
    }

    /** An answered LRANGE of the whole list once the cluster healed. */
    HistoryBuilder listReadAfterHealing(String key, List<String> elements, long from, long to) {
        ops.add(new Op.ListRead(99, key, elements, from * SECOND, to * SECOND, Reply.OK));
        return this;
    }

    /** The client was told this acknowledged write of {@code key} was lost. */
    HistoryBuilder namedLoss(String key, long revision) {
        namedLosses.add(History.lossName(key, revision));
        return this;
    }

    History build() {
        return new History(ackMode, ops, namedLosses, retried,
                new History.Watches(SEGMENTS, watchSpans, watchEvents));
    }

    private long revisionIf(String key, boolean acknowledged) {
        return acknowledged ? revisions.merge(key, 1L, Long::sum) : -1;
    }
}
