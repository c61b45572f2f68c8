package io.zaris.chaos;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Checks one counter: its increments and the values read from it.
 *
 * <p>Acknowledged increments are tracked exactly; indeterminate ones only widen the upper bound. An
 * acknowledged increment by {@code d} that returned {@code r} covered the values {@code (r - d, r]}. The
 * workload picks deltas at random from a wide range, so a lost increment does not hide behind an applied
 * indeterminate one: the two would have to have the same delta.
 * <ul>
 *   <li>the ranges of acknowledged increments never overlap (an overlap counted something twice: an
 *       increment was lost and the counter went back);</li>
 *   <li>an increment acknowledged before another was invoked lies below it;</li>
 *   <li>a read during the run is at least the highest result acknowledged before it began, and at most what
 *       every increment invoked before it completed could add up to;</li>
 *   <li>after healing the value F is at least every acknowledged result, at least the sum A of acknowledged
 *       deltas and at most A plus the indeterminate deltas; and F − A is the sum of some set of indeterminate
 *       deltas (checked exactly while a key has at most {@value #MAX_SUBSET_INDETERMINATE} indeterminate
 *       increments, beyond that only the bounds).</li>
 * </ul>
 * Refused increments add nothing. Under ASYNC, an acknowledged increment the client was told was lost (named by
 * key and revision, as every other write) is no longer required: it counts as indeterminate, since reads may have
 * seen it before the loss. The rules above then run again; their findings are excused only if none remains, so a
 * loss named for one increment never covers another.
 */
final class CounterCheck {

    /** Most indeterminate increments of one counter whose subset sums the final check enumerates. */
    static final int MAX_SUBSET_INDETERMINATE = 20;

    private final String key;
    /** Acknowledged increments required to survive: under ASYNC, those the client was told were lost are not. */
    private final List<Op.Increment> acknowledged;
    private final List<Op.Increment> indeterminate;
    /** Acknowledged increments by completion time, and the highest result among the first i + 1 of them. */
    private final List<Op.Increment> acknowledgedByCompletion;
    private final long[] highestResult;
    /** Increments not refused, by invocation time, and the sum of the deltas of the first i + 1 of them. */
    private final List<Op.Increment> possible;
    private final long[] possibleSum;
    private final List<Finding> found = new ArrayList<>();

    /**
     * @param namedLost whether an acknowledged increment is one the client was told was lost (always false under
     *                  SYNC: nothing is excused there)
     */
    private CounterCheck(String key, List<Op.Increment> increments, Predicate<Op.Increment> namedLost) {
        this.key = key;
        this.acknowledged = increments.stream()
                .filter(increment -> increment.outcome() == Outcome.OK && !namedLost.test(increment)).toList();
        this.indeterminate = increments.stream().filter(increment -> increment.outcome() == Outcome.INDETERMINATE
                || increment.outcome() == Outcome.OK && namedLost.test(increment)).toList();
        this.acknowledgedByCompletion = acknowledged.stream().sorted(Comparator.comparingLong(Op::completedNanos))
                .toList();
        this.highestResult = new long[acknowledgedByCompletion.size()];
        for (int i = 0; i < highestResult.length; i++) {
            highestResult[i] = Math.max(i == 0 ? 0 : highestResult[i - 1], acknowledgedByCompletion.get(i).result());
        }
        this.possible = increments.stream().filter(increment -> increment.outcome().mayHaveTakenEffect())
                .sorted(Comparator.comparingLong(Op::invokedNanos)).toList();
        this.possibleSum = new long[possible.size()];
        for (int i = 0; i < possibleSum.length; i++) {
            possibleSum[i] = (i == 0 ? 0 : possibleSum[i - 1]) + possible.get(i).delta();
        }
    }

    /**
     * Runs every rule: the increments, each read during the run, and the read after healing ({@code null} when
     * none was answered: the caller reports that). Findings go to {@code findings} together, excused or not.
     */
    static void check(String key, List<Op.Increment> increments, List<Op.Read> reads, Op.Read afterHealing,
                      AsyncLosses losses, Findings findings) {
        List<Finding> strict = new CounterCheck(key, increments, increment -> false).run(reads, afterHealing, findings);
        if (strict.isEmpty()) {
            return;
        }
        List<Finding> sparingNamedLosses = new CounterCheck(key, increments,
                increment -> losses.excuse(key, List.of(increment.revision()))).run(reads, afterHealing, findings);
        if (sparingNamedLosses.isEmpty()) {
            strict.forEach(finding -> findings.add(finding, true));
        } else {
            sparingNamedLosses.forEach(finding -> findings.add(finding, false));
        }
    }

    private List<Finding> run(List<Op.Read> reads, Op.Read afterHealing, Findings findings) {
        checkRanges(findings);
        for (Op.Read read : reads) {
            checkRead(read, findings);
        }
        if (afterHealing != null) {
            checkAfterHealing(afterHealing, findings);
        }
        return found;
    }

    private void checkRanges(Findings findings) {
        List<Op.Increment> byValue = acknowledged.stream().sorted(Comparator.comparingLong(Op.Increment::before))
                .toList();
        Set<List<Op.Increment>> reported = new HashSet<>();
        for (int i = 1; i < byValue.size(); i++) {
            Op.Increment lower = byValue.get(i - 1);
            Op.Increment upper = byValue.get(i);
            if (upper.before() < lower.result() && reported.add(List.of(lower, upper))) {
                lost("increments " + describe(lower, findings) + " and " + describe(upper, findings)
                        + " both counted values up to " + lower.result());
            }
        }
        // Real-time order: scanning from the highest range down, the earliest completion above each increment.
        Op.Increment earliestAbove = null;
        for (int i = byValue.size() - 1; i >= 0; i--) {
            Op.Increment increment = byValue.get(i);
            if (earliestAbove != null && earliestAbove.completedNanos() < increment.invokedNanos()
                    && reported.add(List.of(increment, earliestAbove))) {
                lost("increment " + describe(increment, findings) + " started below "
                        + describe(earliestAbove, findings) + ", acknowledged before it was invoked");
            }
            if (earliestAbove == null || increment.completedNanos() < earliestAbove.completedNanos()) {
                earliestAbove = increment;
            }
        }
    }

    private void checkRead(Op.Read read, Findings findings) {
        if (!read.answered()) {
            return;
        }
        Long value = parse(read, findings);
        if (value == null) {
            return;
        }
        int known = countBefore(acknowledgedByCompletion, read.invokedNanos(), false);
        long highest = known == 0 ? 0 : highestResult[known - 1];
        if (value < highest) {
            found.add(new Finding(Finding.Kind.STALE_READ, key, "read " + value + " " + findings.during(read)
                    + " by client " + read.client() + ", but " + highest + " was acknowledged before the read began"));
        }
        int invoked = countBefore(possible, read.completedNanos(), true);
        long most = invoked == 0 ? 0 : possibleSum[invoked - 1];
        if (value > most) {
            found.add(new Finding(Finding.Kind.IMPOSSIBLE_READ, key, "read " + value + " " + findings.during(read)
                    + ", more than the " + most + " every increment not refused by then could add up to"));
        }
    }

    private void checkAfterHealing(Op.Read read, Findings findings) {
        Long value = parse(read, findings);
        if (value == null) {
            return;
        }
        long acknowledgedSum = acknowledged.stream().mapToLong(Op.Increment::delta).sum();
        long indeterminateSum = indeterminate.stream().mapToLong(Op.Increment::delta).sum();
        List<Op.Increment> above = acknowledged.stream().filter(increment -> increment.result() > value).toList();
        if (!above.isEmpty()) {
            lost(above.size() + " acknowledged increment(s) returned more than the value read after healing, "
                    + value + ", e.g. " + describe(above.get(0), findings));
        }
        if (value < acknowledgedSum) {
            lost("read " + value + " after healing, below the " + acknowledgedSum + " the "
                    + acknowledged.size() + " acknowledged increments add up to");
        } else if (value > acknowledgedSum + indeterminateSum) {
            found.add(new Finding(Finding.Kind.IMPOSSIBLE_READ, key, "read " + value + " after healing, above the "
                    + acknowledgedSum + " acknowledged plus " + indeterminateSum + " indeterminate"));
        } else if (indeterminate.size() <= MAX_SUBSET_INDETERMINATE
                && !isSubsetSum(value - acknowledgedSum, indeterminate)) {
            lost("read " + value + " after healing = " + acknowledgedSum + " acknowledged + "
                    + (value - acknowledgedSum) + ", which no set of the " + indeterminate.size()
                    + " indeterminate increments adds up to");
        }
    }

    private void lost(String detail) {
        found.add(new Finding(Finding.Kind.LOST_INCREMENT, key, detail));
    }

    private Long parse(Op.Read read, Findings findings) {
        if (read.value() == null) {
            return 0L;
        }
        try {
            return Long.parseLong(read.value());
        } catch (NumberFormatException e) {
            found.add(new Finding(Finding.Kind.IMPOSSIBLE_READ, key, "read '" + read.value() + "' "
                    + findings.during(read) + ", not a counter value"));
            return null;
        }
    }

    /**
     * How many of {@code sorted} (ascending by completion, or by invocation when {@code byInvocation}) happened
     * before {@code nanos}.
     */
    private static int countBefore(List<Op.Increment> sorted, long nanos, boolean byInvocation) {
        int low = 0;
        int high = sorted.size();
        while (low < high) {
            int middle = (low + high) >>> 1;
            Op.Increment increment = sorted.get(middle);
            if ((byInvocation ? increment.invokedNanos() : increment.completedNanos()) < nanos) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low;
    }

    /** Whether some subset of the increments' deltas adds up to exactly {@code target}. */
    private static boolean isSubsetSum(long target, List<Op.Increment> increments) {
        Set<Long> sums = new HashSet<>();
        sums.add(0L);
        for (Op.Increment increment : increments) {
            Set<Long> next = new HashSet<>(sums);
            for (long sum : sums) {
                next.add(sum + increment.delta());
            }
            sums = next;
        }
        return sums.contains(target);
    }

    private static String describe(Op.Increment increment, Findings findings) {
        return "+" + increment.delta() + " → " + increment.result() + " " + findings.during(increment) + " by client "
                + increment.client();
    }
}
