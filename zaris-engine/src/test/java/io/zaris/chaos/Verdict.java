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
 */
record Verdict(List<Finding> findings, List<Finding> excused, Map<Reply, Long> replies,
               Map<Reply, Long> retriedAttempts, Tally tally, long segmentCopiesCompared) {

    Verdict {
        findings = List.copyOf(findings);
        excused = List.copyOf(excused);
        replies = History.byKind(replies);
        retriedAttempts = History.byKind(retriedAttempts);
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
     * Sizes of the history.
     *
     * @param keysWritten           keys any operation tried to change
     * @param keysReadAfterHealing  of those, keys answered by a read after healing
     */
    record Tally(long writesAcknowledged, long writesIndeterminate, long writesRefused, long casUpdatesAcknowledged,
                 long incrementsAcknowledged, long readsAnswered, long keysWritten, long keysReadAfterHealing,
                 long namedLosses) {
    }
}
