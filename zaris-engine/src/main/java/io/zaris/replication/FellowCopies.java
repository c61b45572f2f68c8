package io.zaris.replication;

import io.zaris.store.SegmentPosition;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * New active side of a takeover: what its possession pull proved about each fellow owner's copy of a segment, so the
 * replicator can carry that copy over to the new epoch instead of replacing it with a snapshot.
 *
 * <p><b>Why it holds.</b> A fellow answers a pull with its tail only when its copy is complete under the asker's
 * lineage epoch; two complete copies of one epoch are prefixes of that epoch's one history, and a pulled change keeps
 * its revision. So once the pull ended with this node holding every change the fellow had (the fellow's revision is
 * not above this copy's), the fellow's copy is exactly this copy's prefix up to {@link Basis#fellowRevision}, and the
 * pull's epoch fenced every writer of the lineage, so the fellow gains nothing more under it. While this copy has
 * changed only by this node's own writes since ({@link Basis#ownForeignChanges} unchanged), its log from that
 * revision turns the fellow's copy into this one. The fellow checks its side again when asked
 * ({@code ADVANCE_EPOCH}: still complete under the lineage, at that revision, with no change of a foreign epoch);
 * anything that does not match gets a snapshot as before.
 *
 * <p>Threads: a takeover's completion records (before its gate opens), the replication thread takes; entries are
 * immutable records replaced whole in concurrent maps, each taken at most once. Bounded: one entry per fellow and
 * segment, cleared for a partition when a new takeover of it starts.
 */
public final class FellowCopies {

    /**
     * @param lineageEpoch      the epoch both copies were complete under when the pull ended
     * @param fellowRevision    the fellow's revision then (its copy is this node's copy up to there)
     * @param ownForeignChanges this node's count of foreign changes to its copy once every pull of the takeover ended
     */
    public record Basis(long lineageEpoch, long fellowRevision, long ownForeignChanges) {
    }

    private final Map<String, Map<Integer, Basis>> byFellow = new ConcurrentHashMap<>();

    /** A takeover of the partition with these segments starts: what an earlier one proved no longer counts. */
    public void forget(int firstSegment, int lastSegment) {
        for (Map<Integer, Basis> segments : byFellow.values()) {
            for (int s = firstSegment; s <= lastSegment; s++) {
                segments.remove(s);
            }
        }
    }

    /** The takeover's pull from {@code fellow} proved {@code basis} for {@code segment}. */
    public void record(String fellow, int segment, Basis basis) {
        byFellow.computeIfAbsent(fellow, f -> new ConcurrentHashMap<>()).put(segment, basis);
    }

    /** What is known of {@code fellow}'s copy of {@code segment}, removed; {@code null} when nothing is. */
    Basis take(String fellow, int segment) {
        Map<Integer, Basis> segments = byFellow.get(fellow);
        return segments == null ? null : segments.remove(segment);
    }

    /**
     * Whether a pull the fellow answered with its tail (so its copy is complete under the lineage), which ended with the
     * fellow at {@code fellowRevision} and this copy at {@code ownRevision}, proves the fellow's copy a prefix of this
     * one: nothing of it lies beyond what this copy holds. Pure.
     */
    public static boolean pullProvesPrefix(long fellowRevision, long ownRevision) {
        return fellowRevision >= 0 && fellowRevision <= ownRevision;
    }

    /**
     * Whether this copy, now at {@code own}, can still turn the fellow's copy {@code basis} describes into itself with
     * its log: it changed only by this node's own writes since the takeover, and it is not behind the fellow. Pure.
     */
    static boolean carriesOver(Basis basis, SegmentPosition own) {
        return basis != null && basis.lineageEpoch() >= 0 && own.foreignChanges() == basis.ownForeignChanges()
                && basis.fellowRevision() <= own.revision();
    }
}
