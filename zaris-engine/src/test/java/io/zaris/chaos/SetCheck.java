package io.zaris.chaos;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Checks one set that only ever grows: SADDs of members unique in the run, by any number of adders, and the SMEMBERS
 * reads of it. Members are never removed, so every read must hold:
 * <ul>
 *   <li>every member whose add was acknowledged before the read began;</li>
 *   <li>every member an earlier read (one that completed before this one began) returned: that add took effect,
 *       whatever its caller heard;</li>
 *   <li>nothing else than members of adds not refused and invoked before the read completed.</li>
 * </ul>
 * A member missing from a read during the run is a stale read; from the read after healing, a lost add. Indeterminate
 * adds are never required, only allowed. The set API returns no revision, so nothing here is excused by a named ASYNC
 * loss (the workload adds to sets under SYNC only).
 */
final class SetCheck {

    /** Missing members one finding names before it only counts the rest. */
    private static final int NAMED = 3;

    private final String key;
    private final Map<String, Op.SetAdd> addsByMember = new HashMap<>();
    /** Acknowledged adds. */
    private final List<Op.SetAdd> acknowledged;
    /** Each member some read returned, and the earliest completion of such a read. */
    private final Map<String, Long> firstSeenNanos = new TreeMap<>();

    /**
     * @param reads every answered-or-not read of the set, during the run and after healing
     * @throws IllegalArgumentException when a member is added twice (the workload never repeats one)
     */
    private SetCheck(String key, List<Op.SetAdd> adds, List<Op.SetRead> reads) {
        this.key = key;
        for (Op.SetAdd add : adds) {
            if (addsByMember.put(add.member(), add) != null) {
                throw new IllegalArgumentException(key + ": member " + add.member() + " added twice");
            }
        }
        this.acknowledged = adds.stream().filter(add -> add.outcome() == Outcome.OK).toList();
        for (Op.SetRead read : reads) {
            if (read.answered()) {
                read.members().forEach(member -> firstSeenNanos.merge(member, read.completedNanos(), Math::min));
            }
        }
    }

    /** Checks every read of the set during the run and the one after healing ({@code null}: none was answered). */
    static void check(String key, List<Op.SetAdd> adds, List<Op.SetRead> reads, Op.SetRead afterHealing,
                      Findings findings) {
        List<Op.SetRead> all = new ArrayList<>(reads);
        if (afterHealing != null) {
            all.add(afterHealing);
        }
        SetCheck check = new SetCheck(key, adds, all);
        reads.forEach(read -> check.checkRead(read, false, findings));
        if (afterHealing != null) {
            check.checkRead(afterHealing, true, findings);
        }
    }

    private void checkRead(Op.SetRead read, boolean afterHealing, Findings findings) {
        if (!read.answered()) {
            return;
        }
        List<String> unknown = new ArrayList<>();
        for (String member : read.members()) {
            Op.SetAdd add = addsByMember.get(member);
            if (add == null || !add.outcome().mayHaveTakenEffect() || add.invokedNanos() > read.completedNanos()) {
                unknown.add(member);
            }
        }
        if (!unknown.isEmpty()) {
            findings.add(new Finding(Finding.Kind.IMPOSSIBLE_READ, key, "SMEMBERS " + findings.during(read)
                    + " by client " + read.client() + " returned " + unknown.size() + " member(s) no add could have put "
                    + "there then, e.g. " + unknown.subList(0, Math.min(NAMED, unknown.size()))));
        }
        List<String> missingAcknowledged = new ArrayList<>();
        for (Op.SetAdd add : acknowledged) {
            if (add.completedNanos() < read.invokedNanos() && !read.members().contains(add.member())) {
                missingAcknowledged.add(add.member() + " (acknowledged " + findings.at(add.completedNanos()) + ")");
            }
        }
        List<String> missingSeen = new ArrayList<>();
        firstSeenNanos.forEach((member, seen) -> {
            if (seen < read.invokedNanos() && !read.members().contains(member)
                    && addsByMember.containsKey(member) && addsByMember.get(member).outcome() != Outcome.OK) {
                missingSeen.add(member + " (read " + findings.at(seen) + ")");
            }
        });
        if (missingAcknowledged.isEmpty() && missingSeen.isEmpty()) {
            return;
        }
        String detail = "SMEMBERS " + (afterHealing ? "after healing " : "") + findings.during(read) + " by client "
                + read.client() + " lacks " + missingAcknowledged.size() + " acknowledged add(s) "
                + missingAcknowledged.subList(0, Math.min(NAMED, missingAcknowledged.size())) + " and "
                + missingSeen.size() + " add(s) of unknown outcome an earlier read returned "
                + missingSeen.subList(0, Math.min(NAMED, missingSeen.size()));
        findings.add(new Finding(afterHealing ? Finding.Kind.LOST_SET_ADD : Finding.Kind.STALE_READ, key, detail));
    }
}
