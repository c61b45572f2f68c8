package io.zaris.chaos;

import java.util.EnumMap;
import java.util.Map;

/**
 * Judges a recorded chaos history, in the spirit of Jepsen's register workloads. A pure function: the same
 * history always gives the same verdict, with no cluster, clock or randomness involved.
 *
 * <ul>
 *   <li>single-writer keys: every answered read against real-time order ({@link RegisterCheck}), including
 *       the read of every written key after healing, which finds lost writes; a read a near cache answered may be
 *       stale up to {@link NearReadStaleness#BOUND};</li>
 *   <li>key watches: each watch was handed every acknowledged change of the single-writer keys it watched, or told
 *       of a gap, and each key's changes in order ({@link WatchCheck});</li>
 *   <li>compare-and-set keys: forks, the values the CAS loops read, and every acknowledged update on the
 *       final value's history ({@link CasCheck});</li>
 *   <li>counters (string counters, a hash's counter field, a sorted-set member's score): acknowledged increments
 *       exactly, indeterminate ones as an upper bound ({@link CounterCheck});</li>
 *   <li>sets of unique adds: every acknowledged add, and every member a read returned, in every later read; nothing
 *       no add put there ({@link SetCheck});</li>
 *   <li>lists used as queues by one producer and one consumer: each element popped once, in push order, none lost
 *       but as many as pops of unknown outcome may have taken ({@link QueueCheck});</li>
 *   <li>a written key no read after healing answered is unchecked, which is a finding too;</li>
 *   <li>replica copies: after healing, every owner's digest of every segment equals the active's
 *       ({@link ReplicaCheck});</li>
 *   <li>every reply the client should have resolved itself (MOVED, OWNERSHIP_CHANGING,
 *       REPLICA_WRITE_REJECTED, MIGRATING, UNAVAILABLE) that reached the application is a finding.</li>
 * </ul>
 * Under ASYNC, anomalies every implied loss of which was named to the client are excused ({@link AsyncLosses}).
 */
final class Checker {

    private Checker() {
    }

    /** Judges a history with no replica copies to compare: for synthetic histories of the other checks. */
    static Verdict check(History history) {
        return check(history, ReplicaCopies.none());
    }

    /**
     * Judges a run: its history and the copies of every partition fetched after healing.
     *
     * @throws IllegalArgumentException when the history breaks the workload's invariants (see the checks)
     */
    static Verdict check(History history, ReplicaCopies copies) {
        long origin = history.ops().stream().mapToLong(Op::invokedNanos).min().orElse(0);
        Findings findings = new Findings(origin);
        AsyncLosses losses = new AsyncLosses(history.ackMode(), history.namedLosses());
        NearReadStaleness near = new NearReadStaleness(NearReadStaleness.BOUND);
        long keysWritten = 0;
        long keysReadAfterHealing = 0;
        Map<String, KeyOps> keys = KeyOps.byKey(history.ops());
        QueueCheck.Counts queues = QueueCheck.Counts.NONE;
        for (KeyOps key : keys.values()) {
            Op.Read afterHealing = key.answeredAfterHealing();
            if (key.written()) {
                keysWritten++;
                if (!key.readBackAfterHealing()) {
                    findings.add(new Finding(Finding.Kind.UNREADABLE_AFTER_HEALING, key.key,
                            key.readsAfterHealingTried() + " read(s) after healing, none answered"));
                } else {
                    keysReadAfterHealing++;
                }
            }
            if (!key.setAdds.isEmpty()) {
                SetCheck.check(key.key, key.setAdds, key.setReads, key.setReadAfterHealing(), findings);
            } else if (!key.pushes.isEmpty() || !key.pops.isEmpty()) {
                queues = queues.plus(QueueCheck.check(key.key, key.pushes, key.pops, key.listReadAfterHealing(),
                        findings));
            } else if (!key.updates.isEmpty()) {
                CasCheck check = new CasCheck(key.key, key.updates);
                check.checkForks(losses, findings);
                key.reads.forEach(read -> check.checkRead(read, losses, findings));
                if (afterHealing != null) {
                    check.checkAfterHealing(afterHealing, losses, findings);
                }
            } else if (!key.increments.isEmpty()) {
                CounterCheck.check(key.key, key.increments, key.reads, afterHealing, losses, findings);
            } else {
                RegisterCheck check = new RegisterCheck(key.key, key.writes);
                key.reads.forEach(read -> check.check(read, losses, findings, near));
                key.readsAfterHealing.forEach(read -> check.check(read, losses, findings, near));
            }
        }
        Verdict.Watching watching = WatchCheck.check(history.watches(), keys, losses, findings);
        long segmentCopiesCompared = ReplicaCheck.check(copies, findings);
        Map<Reply, Long> replies = new EnumMap<>(Reply.class);
        for (Op op : history.ops()) {
            replies.merge(op.reply(), 1L, Long::sum);
            if (op.reply().mustNotSurface()) {
                findings.add(new Finding(Finding.Kind.SURFACED_STATUS, op.key(), op.reply() + " reached the "
                        + "application from " + name(op) + " " + findings.during(op) + " by client " + op.client()));
            }
        }
        return new Verdict(findings.found(), findings.excused(), replies, history.retriedAttempts(),
                tally(history, keysWritten, keysReadAfterHealing), segmentCopiesCompared, near.summary(), watching,
                collections(history, queues));
    }

    private static Verdict.CollectionOps collections(History history, QueueCheck.Counts queues) {
        long setAdds = 0;
        long setReads = 0;
        long hashIncrements = 0;
        long scoreIncrements = 0;
        for (Op op : history.ops()) {
            if (op instanceof Op.SetAdd add && add.outcome() == Outcome.OK) {
                setAdds++;
            } else if (op instanceof Op.SetRead read && read.answered() && !read.afterHealing()) {
                setReads++;
            } else if (op instanceof Op.Increment increment && increment.outcome() == Outcome.OK) {
                hashIncrements += increment.target() == Op.Increment.Target.HASH_FIELD ? 1 : 0;
                scoreIncrements += increment.target() == Op.Increment.Target.SORTED_SET_SCORE ? 1 : 0;
            }
        }
        return new Verdict.CollectionOps(setAdds, setReads, hashIncrements, scoreIncrements, queues);
    }

    private static Verdict.Tally tally(History history, long keysWritten, long keysReadAfterHealing) {
        long[] writes = new long[Outcome.values().length];
        long casUpdates = 0;
        long increments = 0;
        long reads = 0;
        for (Op op : history.ops()) {
            if (op instanceof Op.Write write) {
                writes[write.outcome().ordinal()]++;
            } else if (op instanceof Op.Cas update && update.outcome() == Outcome.OK) {
                casUpdates++;
            } else if (op instanceof Op.Increment increment && increment.outcome() == Outcome.OK
                    && increment.target() == Op.Increment.Target.COUNTER) {
                increments++;
            } else if (op instanceof Op.Read read && read.answered() && !read.afterHealing()) {
                reads++;
            }
        }
        return new Verdict.Tally(writes[Outcome.OK.ordinal()], writes[Outcome.INDETERMINATE.ordinal()],
                writes[Outcome.FAILED.ordinal()], casUpdates, increments, reads, keysWritten, keysReadAfterHealing,
                history.namedLosses().size());
    }

    private static String name(Op op) {
        if (op instanceof Op.Write write) {
            return write.value() == null ? "a DELETE" : "a PUT";
        }
        if (op instanceof Op.Cas) {
            return "a CAS";
        }
        if (op instanceof Op.Increment increment) {
            return switch (increment.target()) {
                case COUNTER -> "an INCREMENT";
                case HASH_FIELD -> "an HINCRBY";
                case SORTED_SET_SCORE -> "a ZINCRBY";
            };
        }
        if (op instanceof Op.SetAdd) {
            return "an SADD";
        }
        if (op instanceof Op.SetRead) {
            return "an SMEMBERS";
        }
        if (op instanceof Op.Push) {
            return "an RPUSH";
        }
        if (op instanceof Op.Pop) {
            return "an LPOP";
        }
        return op instanceof Op.ListRead ? "an LRANGE" : "a GET";
    }
}
