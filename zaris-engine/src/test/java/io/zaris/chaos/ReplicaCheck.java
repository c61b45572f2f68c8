package io.zaris.chaos;

import io.zaris.model.SegmentDigest;
import java.util.List;

/**
 * Compares every copy of every partition after healing: each owner's digest of each segment against the active
 * owner's. A pure function of the fetched {@link ReplicaCopies}.
 *
 * <ul>
 *   <li>a copy whose key count or content digest differs from the active's is a {@link Finding.Kind#DIVERGED_REPLICA},
 *       named by partition, segment and both nodes with what each holds;</li>
 *   <li>an owner that did not answer, or answered for other segments, is a {@link Finding.Kind#UNCOMPARED_REPLICA}:
 *       a copy nobody looked at must not pass for an equal one.</li>
 * </ul>
 * Segment revisions are printed but not compared on their own: the digest covers every entry's version, which is
 * the revision of its last change, so two copies with equal content agree on everything a read can see.
 */
final class ReplicaCheck {

    private ReplicaCheck() {
    }

    /** Adds a finding per diverged or uncompared copy; returns how many segment copies were compared. */
    static long check(ReplicaCopies copies, Findings findings) {
        long compared = 0;
        for (ReplicaCopies.PartitionCopies partition : copies.partitions()) {
            compared += checkPartition(partition, findings);
        }
        return compared;
    }

    /** Whether {@link #check} would find nothing: every owner answered and every copy equals its active's. */
    static boolean converged(ReplicaCopies copies) {
        Findings findings = new Findings(0);
        check(copies, findings);
        return findings.found().isEmpty();
    }

    private static long checkPartition(ReplicaCopies.PartitionCopies partition, Findings findings) {
        String where = "partition " + partition.partition();
        String reference = partition.byNode().containsKey(partition.active()) ? partition.active()
                : partition.owners().stream().filter(partition.byNode()::containsKey).findFirst().orElse(null);
        if (reference == null) {
            findings.add(new Finding(Finding.Kind.UNCOMPARED_REPLICA, where, "none of its owners "
                    + partition.owners() + " answered for its segment digests"));
            return 0;
        }
        List<SegmentDigest> expected = partition.byNode().get(reference);
        long compared = 0;
        for (String owner : partition.owners()) {
            if (owner.equals(reference)) {
                continue;
            }
            List<SegmentDigest> copy = partition.byNode().get(owner);
            if (copy == null) {
                findings.add(new Finding(Finding.Kind.UNCOMPARED_REPLICA, where, "owner " + owner
                        + " did not answer for its segment digests"));
                continue;
            }
            if (!sameSegments(expected, copy)) {
                findings.add(new Finding(Finding.Kind.UNCOMPARED_REPLICA, where, "owner " + owner + " answered for "
                        + copy.size() + " segment(s), " + reference + " for " + expected.size()));
                continue;
            }
            for (int i = 0; i < expected.size(); i++) {
                compared++;
                if (!expected.get(i).sameContentAs(copy.get(i))) {
                    findings.add(new Finding(Finding.Kind.DIVERGED_REPLICA, where + " segment " + expected.get(i).segment(),
                            describe(reference, reference.equals(partition.active()), expected.get(i)) + " but "
                                    + describe(owner, false, copy.get(i))));
                }
            }
        }
        return compared;
    }

    private static boolean sameSegments(List<SegmentDigest> a, List<SegmentDigest> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i).segment() != b.get(i).segment()) {
                return false;
            }
        }
        return true;
    }

    private static String describe(String node, boolean active, SegmentDigest digest) {
        return node + (active ? " (active)" : "") + " holds " + digest.keys() + " key(s), digest "
                + Long.toHexString(digest.digest()) + ", revision " + digest.revision();
    }
}
