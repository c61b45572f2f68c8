package io.zaris.chaos;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks one compare-and-set key: the updates themselves, and every value read from the key (the CAS loops'
 * own reads included).
 *
 * <p>Invariants of the input: every CAS writes a unique value and names the value it replaces (the one its
 * caller read together with the version it sent). So the values form a tree rooted at "absent", each value's
 * parent being the value its CAS replaced, and the depth of a value is the number of updates from absent to
 * it. In a correct history the applied updates form one path of that tree.
 *
 * <p>The rules:
 * <ul>
 *   <li>a fork, two acknowledged updates that replaced the same value, means one of them was lost;</li>
 *   <li>a read returns absent or the value of an update that was not refused and was invoked before the read
 *       completed; anything else is impossible;</li>
 *   <li>a read during the run may not return a value shallower than an update acknowledged before the read
 *       began (stale);</li>
 *   <li>after healing, the path from the key's value back to absent holds every update acknowledged before
 *       that read (a missing one was lost).</li>
 * </ul>
 * Under ASYNC a fork is excused when all but one of its updates were named lost, and a stale read or a missing
 * update when every acknowledged update it implies lost was named, each by key and revision.
 */
final class CasCheck {

    private final String key;
    private final Map<String, Op.Cas> byValue = new HashMap<>();
    /** Acknowledged updates by completion time. */
    private final List<Op.Cas> acknowledged;
    /** {@code deepest[i]}: the greatest depth among {@code acknowledged[0..i]}. */
    private final int[] deepest;
    private final Map<String, Integer> depths = new HashMap<>();

    /** @throws IllegalArgumentException when two updates wrote the same value */
    CasCheck(String key, List<Op.Cas> updates) {
        this.key = key;
        for (Op.Cas update : updates) {
            if (byValue.put(update.value(), update) != null) {
                throw new IllegalArgumentException(key + " was written the value '" + update.value() + "' twice");
            }
        }
        this.acknowledged = updates.stream().filter(update -> update.outcome() == Outcome.OK)
                .sorted(Comparator.comparingLong(Op::completedNanos)).toList();
        this.deepest = new int[acknowledged.size()];
        for (int i = 0; i < deepest.length; i++) {
            deepest[i] = Math.max(i == 0 ? 0 : deepest[i - 1], depth(acknowledged.get(i).value()));
        }
    }

    /** Two acknowledged updates from one value: at least one of them did not survive. */
    void checkForks(AsyncLosses losses, Findings findings) {
        Map<String, List<Op.Cas>> byReplaced = new LinkedHashMap<>();
        for (Op.Cas update : acknowledged) {
            byReplaced.computeIfAbsent(String.valueOf(update.expected()), replaced -> new ArrayList<>()).add(update);
        }
        for (List<Op.Cas> fork : byReplaced.values()) {
            if (fork.size() < 2) {
                continue;
            }
            boolean excused = false;
            for (int kept = 0; kept < fork.size() && !excused; kept++) {
                List<Long> others = new ArrayList<>();
                for (int i = 0; i < fork.size(); i++) {
                    if (i != kept) {
                        others.add(fork.get(i).revision());
                    }
                }
                excused = losses.excuse(key, others);
            }
            StringBuilder detail = new StringBuilder().append(fork.size()).append(" acknowledged updates replaced ")
                    .append(describe(fork.get(0).expected())).append(':');
            for (Op.Cas update : fork) {
                detail.append(" '").append(update.value()).append("' ").append(findings.during(update))
                        .append(" revision ").append(update.revision()).append(';');
            }
            findings.add(new Finding(Finding.Kind.LOST_CAS_UPDATE, key, detail.toString()), excused);
        }
    }

    /** A read during the run: possible, and not older than an update acknowledged before it began. */
    void checkRead(Op.Read read, AsyncLosses losses, Findings findings) {
        if (!read.answered() || isImpossible(read, findings)) {
            return;
        }
        int known = acknowledgedBefore(read.invokedNanos());
        int depth = depth(read.value());
        if (known < 0 || deepest[known] <= depth) {
            return;
        }
        List<Long> newer = new ArrayList<>();
        for (int i = 0; i <= known; i++) {
            if (depth(acknowledged.get(i).value()) > depth) {
                newer.add(acknowledged.get(i).revision());
            }
        }
        findings.add(new Finding(Finding.Kind.STALE_READ, key, "read " + describe(read.value()) + " (update "
                + depth + ") " + findings.during(read) + " by client " + read.client() + ", but update "
                + deepest[known] + " was acknowledged before the read began; " + newer.size()
                + " acknowledged update(s) newer than the value read"), losses.excuse(key, newer));
    }

    /** The read after healing: every update acknowledged before it lies on its value's path. */
    void checkAfterHealing(Op.Read read, AsyncLosses losses, Findings findings) {
        if (!read.answered() || isImpossible(read, findings)) {
            return;
        }
        Set<String> path = new HashSet<>();
        for (String value = read.value(); value != null && byValue.containsKey(value) && path.add(value); ) {
            value = byValue.get(value).expected();
        }
        int known = acknowledgedBefore(read.invokedNanos());
        for (int i = 0; i <= known; i++) {
            Op.Cas update = acknowledged.get(i);
            if (!path.contains(update.value())) {
                findings.add(new Finding(Finding.Kind.LOST_CAS_UPDATE, key, "the update to '" + update.value()
                        + "' acknowledged at " + findings.at(update.completedNanos()) + " (revision " + update.revision()
                        + ") is not in the history of the value read after healing, " + describe(read.value())),
                        losses.excuse(key, List.of(update.revision())));
            }
        }
    }

    private boolean isImpossible(Op.Read read, Findings findings) {
        if (read.value() == null) {
            return false;
        }
        Op.Cas writer = byValue.get(read.value());
        String reason = null;
        if (writer == null) {
            reason = "no update of the key wrote it";
        } else if (!writer.outcome().mayHaveTakenEffect()) {
            reason = "its update was refused (" + writer.reply() + ")";
        } else if (writer.invokedNanos() > read.completedNanos()) {
            reason = "its update was invoked at " + findings.at(writer.invokedNanos()) + ", after the read completed";
        }
        if (reason != null) {
            findings.add(new Finding(Finding.Kind.IMPOSSIBLE_READ, key, "read '" + read.value() + "' "
                    + findings.during(read) + " but " + reason));
        }
        return reason != null;
    }

    /** The index of the last update in {@link #acknowledged} completed before {@code nanos}; -1 when none. */
    private int acknowledgedBefore(long nanos) {
        int low = 0;
        int high = acknowledged.size() - 1;
        int found = -1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            if (acknowledged.get(middle).completedNanos() < nanos) {
                found = middle;
                low = middle + 1;
            } else {
                high = middle - 1;
            }
        }
        return found;
    }

    /**
     * Updates from absent to {@code value}, following each value's replaced value; a value no update wrote
     * counts as 0 (the read of it is flagged impossible), and so does a cycle, which unique values rule out.
     */
    private int depth(String value) {
        List<String> path = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        String current = value;
        int base = 0;
        while (current != null && byValue.containsKey(current)) {
            Integer known = depths.get(current);
            if (known != null) {
                base = known;
                break;
            }
            if (!seen.add(current)) {
                break;
            }
            path.add(current);
            current = byValue.get(current).expected();
        }
        for (int i = path.size() - 1; i >= 0; i--) {
            base++;
            depths.put(path.get(i), base);
        }
        return value == null ? 0 : depths.getOrDefault(value, base);
    }

    private static String describe(String value) {
        return value == null ? "absent" : "'" + value + "'";
    }
}
