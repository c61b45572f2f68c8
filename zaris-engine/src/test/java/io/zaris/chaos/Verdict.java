package io.zaris.chaos;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What the checker concluded from one history.
 *
 * @param findings        everything wrong, in the order found
 * @param excused         anomalies a named ASYNC loss explains (never under SYNC)
 * @param replies         every reply an operation's caller got, by kind
 * @param retriedAttempts failed attempts the clients retried without telling the caller, by kind
 * @param segmentCopiesCompared replica copies of segments compared with their active's after healing
 * @param nearReads       what the reads the near cache answered showed
 * @param watching        what the key watches were handed, and what they owed
 * @param collections     what the collection operations did
 */
record Verdict(List<Finding> findings, List<Finding> excused, Map<Reply, Long> replies,
               Map<Reply, Long> retriedAttempts, Tally tally, long segmentCopiesCompared, NearReads nearReads,
               Watching watching, CollectionOps collections) {

    Verdict {
        findings = List.copyOf(findings);
        excused = List.copyOf(excused);
        replies = History.byKind(replies);
        retriedAttempts = History.byKind(retriedAttempts);
    }

    /** A verdict of a history without collection operations. */
    Verdict(List<Finding> findings, List<Finding> excused, Map<Reply, Long> replies, Map<Reply, Long> retriedAttempts,
            Tally tally, long segmentCopiesCompared, NearReads nearReads, Watching watching) {
        this(findings, excused, replies, retriedAttempts, tally, segmentCopiesCompared, nearReads, watching,
                CollectionOps.NONE);
    }

    /** The run passes when nothing was found; excused ASYNC losses are allowed. */
    boolean passed() {
        return findings.isEmpty();
    }

    List<Finding> of(Finding.Kind kind) {
        return findings.stream().filter(finding -> finding.kind() == kind).toList();
    }

    /** How many findings of each kind, every kind listed. */
    Map<Finding.Kind, Long> countsByKind() {
        Map<Finding.Kind, Long> counts = new EnumMap<>(Finding.Kind.class);
        for (Finding.Kind kind : Finding.Kind.values()) {
            counts.put(kind, 0L);
        }
        findings.forEach(finding -> counts.merge(finding.kind(), 1L, Long::sum));
        return counts;
    }

    /** Replies of {@code kinds} the application saw, summed. */
    long replies(Reply... kinds) {
        long sum = 0;
        for (Reply kind : kinds) {
            sum += replies.getOrDefault(kind, 0L);
        }
        return sum;
    }

    /**
     * The reads near caches answered (single-writer keys only).
     *
     * @param localReads        answered locally during the run
     * @param staleWithinBound  of those, returned a value older than a write acknowledged before the read began, no
     *                          later than the bound allows
     * @param staleBeyondBound  ... later than the bound allows (each is a finding unless a named ASYNC loss excuses it)
     * @param maxStalenessNanos the stalest local read: its start minus the acknowledgement it missed (0 when none)
     * @param p99StalenessNanos the 99th percentile of that over the stale local reads (0 when none)
     * @param boundNanos        the bound the checker held them to
     */
    record NearReads(long localReads, long staleWithinBound, long staleBeyondBound, long maxStalenessNanos,
                     long p99StalenessNanos, long boundNanos) {

        static final NearReads NONE = new NearReads(0, 0, 0, 0, 0, 0);
    }

    /**
     * What the key watches were handed and owed.
     *
     * @param watchers       watches of the run
     * @param changes        changes handed to them
     * @param gaps           gap notices handed to them, by reason
     * @param owed           acknowledged PUTs of a watched key, invoked while a watch was live: owed to each watch
     *                       (counted once per watch)
     * @param delivered      of those, handed on with their version
     * @param coveredByGap   ... not handed on, but a gap notice covers them
     */
    record Watching(long watchers, long changes, Map<String, Long> gaps, long owed, long delivered, long coveredByGap) {

        static final Watching NONE = new Watching(0, 0, Map.of(), 0, 0, 0);

        Watching {
            gaps = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(gaps));
        }

        /** Owed, neither handed on nor covered by a gap: a finding each, unless excused. */
        long missing() {
            return owed - delivered - coveredByGap;
        }
    }

    /**
     * Sizes of the history.
     *
     * @param keysWritten           keys any operation tried to change
     * @param keysReadAfterHealing  of those, keys answered by a read after healing
     */
    record Tally(long writesAcknowledged, long writesIndeterminate, long writesRefused, long casUpdatesAcknowledged,
                 long incrementsAcknowledged, long readsAnswered, long keysWritten, long keysReadAfterHealing,
                 long namedLosses) {
    }

    /**
     * What the collection operations did.
     *
     * @param setAddsAcknowledged         SADDs acknowledged
     * @param setReadsAnswered            SMEMBERS answered during the run
     * @param hashIncrementsAcknowledged  HINCRBYs of a hash's counter field acknowledged
     * @param scoreIncrementsAcknowledged ZINCRBYs of a sorted-set member's score acknowledged
     * @param queues                      the lists' pushes and pops
     */
    record CollectionOps(long setAddsAcknowledged, long setReadsAnswered, long hashIncrementsAcknowledged,
                       long scoreIncrementsAcknowledged, QueueCheck.Counts queues) {

        static final CollectionOps NONE = new CollectionOps(0, 0, 0, 0, QueueCheck.Counts.NONE);
    }
}
