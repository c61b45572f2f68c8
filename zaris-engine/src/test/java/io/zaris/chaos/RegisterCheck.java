package io.zaris.chaos;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks the reads of one single-writer key against its writes in real time.
 *
 * <p>Invariants of the input: one client writes the key, one write at a time (each invoked after the previous
 * completed), and every value it writes is unique, so a read names the one write its value came from. A
 * DELETE writes "absent", which is also the key's state before its first write.
 *
 * <p>The rule, for every answered read R: let A be the newest write acknowledged before R was invoked. R may
 * return the value of A or of any later write that was not refused (a later write may have taken effect
 * before R, acknowledged or not). Anything older is stale: a lost write when R is one of the reads after
 * healing, a stale read otherwise. A value no write wrote, a refused write's value, and a value whose write
 * was invoked after R completed are impossible. An older value's write that was indeterminate is stale all
 * the same: a timed-out write is assumed not to take effect after its writer's next acknowledged write
 * (nodes drop requests past their deadline, and epochs fence a paused owner).
 *
 * <p>A read the near cache answered ({@link Op.Read#local()}) may be stale within a bound: it is a finding only when
 * it began longer after the acknowledgement of the first acknowledged write newer than its value than
 * {@link NearReadStaleness} allows. The other rules hold for it as for any read.
 *
 * <p>Under ASYNC a stale value is excused when every acknowledged write between it and A was named lost by
 * key and revision.
 */
final class RegisterCheck {

    private final String key;
    private final List<Op.Write> writes;
    private final Map<String, Integer> indexOfValue = new HashMap<>();
    /** Indices into {@link #writes} of the acknowledged writes, oldest first (their completion times ascend). */
    private final int[] acknowledged;
    /** Indices of the deletes that may have taken effect, oldest first (their invocation times ascend). */
    private final int[] deletes;

    /**
     * @throws IllegalArgumentException when the writes are not one writer's, one at a time, with unique values
     */
    RegisterCheck(String key, List<Op.Write> writes) {
        this.key = key;
        this.writes = writes.stream().sorted(Comparator.comparingLong(Op::invokedNanos)).toList();
        List<Integer> acked = new ArrayList<>();
        List<Integer> deleted = new ArrayList<>();
        for (int i = 0; i < this.writes.size(); i++) {
            Op.Write write = this.writes.get(i);
            if (i > 0) {
                Op.Write previous = this.writes.get(i - 1);
                if (previous.client() != write.client() || previous.completedNanos() > write.invokedNanos()) {
                    throw new IllegalArgumentException(key + " is not written by one client one write at a time: "
                            + previous + " then " + write);
                }
            }
            if (write.value() != null && indexOfValue.put(write.value(), i) != null) {
                throw new IllegalArgumentException(key + " was written the value '" + write.value() + "' twice");
            }
            if (write.outcome() == Outcome.OK) {
                acked.add(i);
            }
            if (write.value() == null && write.outcome().mayHaveTakenEffect()) {
                deleted.add(i);
            }
        }
        this.acknowledged = acked.stream().mapToInt(Integer::intValue).toArray();
        this.deletes = deleted.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Checks one read of the key; a read that was not answered says nothing and is skipped. */
    void check(Op.Read read, AsyncLosses losses, Findings findings, NearReadStaleness near) {
        if (!read.answered()) {
            return;
        }
        boolean local = read.local() && !read.afterHealing();
        if (local) {
            near.local();
        }
        int source;
        if (read.value() == null) {
            source = lastBefore(deletes, read.completedNanos(), true);
        } else {
            Integer index = indexOfValue.get(read.value());
            String impossible = null;
            if (index == null) {
                impossible = "no write of the key wrote it";
            } else if (!writes.get(index).outcome().mayHaveTakenEffect()) {
                impossible = "its write was refused (" + writes.get(index).reply() + ")";
            } else if (writes.get(index).invokedNanos() > read.completedNanos()) {
                impossible = "its write was invoked at " + findings.at(writes.get(index).invokedNanos())
                        + ", after the read completed";
            }
            if (impossible != null) {
                findings.add(new Finding(Finding.Kind.IMPOSSIBLE_READ, key, "read '" + read.value() + "' "
                        + findings.during(read) + " but " + impossible));
                return;
            }
            source = index;
        }
        int newest = lastBefore(acknowledged, read.invokedNanos(), false);
        if (source >= newest) {
            return;
        }
        List<Long> lostRevisions = new ArrayList<>();
        for (int index : acknowledged) {
            if (index > source && index <= newest) {
                lostRevisions.add(writes.get(index).revision());
            }
        }
        Op.Write expected = writes.get(newest);
        Finding.Kind kind = read.afterHealing() ? Finding.Kind.LOST_WRITE : Finding.Kind.STALE_READ;
        String bound = "";
        if (local) {
            Op.Write missed = firstAcknowledgedAfter(source);
            long staleness = read.invokedNanos() - missed.completedNanos();
            near.stale(staleness);
            if (near.withinBound(staleness)) {
                return;
            }
            kind = Finding.Kind.STALE_NEAR_READ;
            bound = String.format(java.util.Locale.ROOT, "; answered by the near cache %.3f s after %s was acknowledged, "
                    + "the bound is %.3f s", staleness / 1e9, describe(missed.value()), near.boundNanos() / 1e9);
        }
        String detail = "read " + describe(read.value()) + " " + findings.during(read) + " by client " + read.client()
                + ", but " + describe(expected.value()) + " was acknowledged at " + findings.at(expected.completedNanos())
                + " (revision " + expected.revision() + "), " + lostRevisions.size()
                + " acknowledged write(s) newer than the value read" + bound;
        findings.add(new Finding(kind, key, detail), losses.excuse(key, lostRevisions));
    }

    /** The first acknowledged write after the write at {@code index} ({@code -1}: the initial state); one exists. */
    private Op.Write firstAcknowledgedAfter(int index) {
        for (int acked : acknowledged) {
            if (acked > index) {
                return writes.get(acked);
            }
        }
        throw new IllegalStateException(key + ": no acknowledged write after " + index);
    }

    /**
     * The newest of {@code indices} whose write completed ({@code byInvocation}: was invoked) before
     * {@code nanos}, as an index into {@link #writes}; {@code -1} (the key's initial absent state) when none.
     */
    private int lastBefore(int[] indices, long nanos, boolean byInvocation) {
        int low = 0;
        int high = indices.length - 1;
        int found = -1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            Op.Write write = writes.get(indices[middle]);
            long time = byInvocation ? write.invokedNanos() : write.completedNanos();
            if (time < nanos) {
                found = indices[middle];
                low = middle + 1;
            } else {
                high = middle - 1;
            }
        }
        return found;
    }

    private static String describe(String value) {
        return value == null ? "absent" : "'" + value + "'";
    }
}
