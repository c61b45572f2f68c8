package io.zaris.chaos;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks one list used as a queue by exactly one producer (RPUSH of elements unique in the run, one call at a time)
 * and one consumer (LPOP of one element, one call at a time), with the whole list read once after healing.
 * <ul>
 *   <li>each popped element was pushed by a push not refused and invoked before the pop completed, and is popped
 *       once: popped twice, or popped and still in the list after healing, is a duplicate pop;</li>
 *   <li>order: in the sequence of popped elements followed by the list after healing, no element comes after one
 *       whose push was acknowledged before its own push was invoked (a later indeterminate push may have been applied
 *       late, so only an acknowledged one pins the order);</li>
 *   <li>a pop that found the list empty came after every acknowledged push completed before it began had been
 *       popped, or taken by an earlier indeterminate pop;</li>
 *   <li>lost: an acknowledged push neither popped nor in the list after healing, unless a distinct indeterminate pop
 *       invoked after it may have taken it (a pop is not repeated once it may have been applied, so its element can
 *       vanish unseen). Every such pop covers one element at most.</li>
 * </ul>
 * The list API returns no revision, so nothing here is excused by a named ASYNC loss (the workload uses lists under
 * SYNC only).
 */
final class QueueCheck {

    private final String key;
    private final Map<String, Op.Push> pushesByElement = new HashMap<>();
    /** Pushes by invocation, and pops by invocation: each has one caller, one call at a time. */
    private final List<Op.Push> pushes;
    private final List<Op.Pop> pops;

    /** What the checks of one list counted, for the report. */
    record Counts(long pushesAcknowledged, long popsTookElement, long popsFoundEmpty, long popsIndeterminate,
                  long unseenCoveredByIndeterminatePops) {

        static final Counts NONE = new Counts(0, 0, 0, 0, 0);

        Counts plus(Counts other) {
            return new Counts(pushesAcknowledged + other.pushesAcknowledged, popsTookElement + other.popsTookElement,
                    popsFoundEmpty + other.popsFoundEmpty, popsIndeterminate + other.popsIndeterminate,
                    unseenCoveredByIndeterminatePops + other.unseenCoveredByIndeterminatePops);
        }
    }

    /**
     * @throws IllegalArgumentException when the list has more than one producer or consumer, or an element is pushed
     *                                  twice (the workload does neither)
     */
    private QueueCheck(String key, List<Op.Push> pushes, List<Op.Pop> pops) {
        this.key = key;
        if (pushes.stream().map(Op::client).distinct().count() > 1 || pops.stream().map(Op::client).distinct().count() > 1) {
            throw new IllegalArgumentException(key + " has more than one producer or consumer");
        }
        for (Op.Push push : pushes) {
            if (pushesByElement.put(push.element(), push) != null) {
                throw new IllegalArgumentException(key + ": element " + push.element() + " pushed twice");
            }
        }
        this.pushes = pushes.stream().sorted(Comparator.comparingLong(Op::invokedNanos)).toList();
        this.pops = pops.stream().sorted(Comparator.comparingLong(Op::invokedNanos)).toList();
    }

    /**
     * Runs every rule; {@code afterHealing} is the answered read of the whole list after healing ({@code null}: none
     * was, which the caller reports, and lost pushes go unchecked).
     */
    static Counts check(String key, List<Op.Push> pushes, List<Op.Pop> pops, Op.ListRead afterHealing,
                        Findings findings) {
        return new QueueCheck(key, pushes, pops).run(afterHealing, findings);
    }

    private Counts run(Op.ListRead afterHealing, Findings findings) {
        List<String> sequence = new ArrayList<>();
        Set<String> popped = new HashSet<>();
        long tookElement = 0;
        long foundEmpty = 0;
        long indeterminate = 0;
        for (Op.Pop pop : pops) {
            Outcome outcome = pop.outcome();
            if (outcome == Outcome.INDETERMINATE) {
                indeterminate++;
            } else if (outcome == Outcome.OK && pop.element() == null) {
                foundEmpty++;
            } else if (outcome == Outcome.OK) {
                tookElement++;
                Op.Push push = pushesByElement.get(pop.element());
                if (push == null || !push.outcome().mayHaveTakenEffect() || push.invokedNanos() > pop.completedNanos()) {
                    findings.add(new Finding(Finding.Kind.IMPOSSIBLE_READ, key, "LPOP " + findings.during(pop)
                            + " took '" + pop.element() + "', which no push could have put there then"));
                } else if (!popped.add(pop.element())) {
                    findings.add(new Finding(Finding.Kind.DUPLICATE_POP, key, "LPOP " + findings.during(pop)
                            + " took '" + pop.element() + "' again"));
                } else {
                    sequence.add(pop.element());
                }
            }
        }
        checkEmptyPops(findings);
        if (afterHealing != null) {
            Set<String> listed = new HashSet<>();
            for (String element : afterHealing.elements()) {
                Op.Push push = pushesByElement.get(element);
                if (push == null || !push.outcome().mayHaveTakenEffect()) {
                    findings.add(new Finding(Finding.Kind.IMPOSSIBLE_READ, key, "the list after healing holds '"
                            + element + "', which no push could have put there"));
                } else if (popped.contains(element) || !listed.add(element)) {
                    findings.add(new Finding(Finding.Kind.DUPLICATE_POP, key, "'" + element + "' is in the list "
                            + "after healing " + (popped.contains(element) ? "although it was popped" : "twice")));
                } else {
                    sequence.add(element);
                }
            }
        }
        checkOrder(sequence, findings);
        long covered = afterHealing == null ? 0 : checkLost(new HashSet<>(sequence), findings);
        long acknowledged = pushes.stream().filter(push -> push.outcome() == Outcome.OK).count();
        return new Counts(acknowledged, tookElement, foundEmpty, indeterminate, covered);
    }

    /** Each element after one whose push was acknowledged before the element's own push was invoked is reordered. */
    private void checkOrder(List<String> sequence, Findings findings) {
        Op.Push latestInvoked = null;
        for (String element : sequence) {
            Op.Push push = pushesByElement.get(element);
            if (latestInvoked != null && push.outcome() == Outcome.OK
                    && push.completedNanos() < latestInvoked.invokedNanos()) {
                findings.add(new Finding(Finding.Kind.REORDERED_POP, key, "'" + element + "', pushed "
                        + findings.during(push) + ", came out after '" + latestInvoked.element() + "', pushed "
                        + findings.during(latestInvoked) + " after it was acknowledged"));
            }
            if (latestInvoked == null || push.invokedNanos() > latestInvoked.invokedNanos()) {
                latestInvoked = push;
            }
        }
    }

    /**
     * A pop that found the list empty: every acknowledged push completed before it began was popped before it, but
     * for as many as the indeterminate pops before it may have taken.
     */
    private void checkEmptyPops(Findings findings) {
        List<Op.Push> acknowledgedByCompletion = pushes.stream().filter(push -> push.outcome() == Outcome.OK)
                .sorted(Comparator.comparingLong(Op::completedNanos)).toList();
        Set<String> poppedSoFar = new HashSet<>();
        Set<String> acknowledgedSoFar = new HashSet<>();
        int next = 0;
        long unpopped = 0;
        long indeterminateSoFar = 0;
        for (Op.Pop pop : pops) {
            Outcome outcome = pop.outcome();
            if (outcome == Outcome.OK && pop.element() == null) {
                while (next < acknowledgedByCompletion.size()
                        && acknowledgedByCompletion.get(next).completedNanos() < pop.invokedNanos()) {
                    String element = acknowledgedByCompletion.get(next++).element();
                    acknowledgedSoFar.add(element);
                    if (!poppedSoFar.contains(element)) {
                        unpopped++;
                    }
                }
                if (unpopped > indeterminateSoFar) {
                    findings.add(new Finding(Finding.Kind.STALE_READ, key, "LPOP " + findings.during(pop)
                            + " found the list empty, while " + unpopped + " acknowledged push(es) were not yet popped"
                            + " and only " + indeterminateSoFar + " pop(s) of unknown outcome came before it"));
                }
            } else if (outcome == Outcome.OK) {
                if (poppedSoFar.add(pop.element()) && acknowledgedSoFar.contains(pop.element())) {
                    unpopped--;
                }
            } else if (outcome == Outcome.INDETERMINATE) {
                indeterminateSoFar++;
            }
        }
    }

    /**
     * Matches each acknowledged push never seen to a distinct indeterminate pop completed after the push was invoked,
     * earliest push first, each to the earliest such pop left (which finds a full matching when there is one); a push
     * left over is lost. Returns how many were matched.
     */
    private long checkLost(Set<String> seen, Findings findings) {
        Deque<Op.Pop> indeterminate = new ArrayDeque<>(pops.stream().filter(pop -> pop.outcome() == Outcome.INDETERMINATE)
                .sorted(Comparator.comparingLong(Op::completedNanos)).toList());
        long covered = 0;
        for (Op.Push push : pushes) {
            if (push.outcome() != Outcome.OK || seen.contains(push.element())) {
                continue;
            }
            while (!indeterminate.isEmpty() && indeterminate.peekFirst().completedNanos() < push.invokedNanos()) {
                indeterminate.pollFirst(); // ended before this push began, so before every later one: useless
            }
            if (indeterminate.pollFirst() != null) {
                covered++;
            } else {
                findings.add(new Finding(Finding.Kind.LOST_PUSH, key, "'" + push.element() + "', pushed "
                        + findings.during(push) + " and acknowledged, was neither popped nor in the list after healing,"
                        + " and no pop of unknown outcome is left that may have taken it"));
            }
        }
        return covered;
    }
}
