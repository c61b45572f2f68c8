package io.zaris.client;

import java.util.List;

/**
 * An acknowledged ASYNC write that did not survive a change of its partition's active owner: the new
 * active inherited its segment only up to {@code inheritedRevision}, below the write's revision.
 *
 * @param key               the written key
 * @param partition         its partition
 * @param segment           its segment
 * @param epoch             the epoch the write was acknowledged under
 * @param revision          the segment revision (= the key's version) the acknowledgement named
 * @param takeoverEpoch     the epoch of the new active owner
 * @param inheritedRevision the highest revision of the segment the new active held when its epoch began
 */
public record LostWrite(String key, int partition, int segment, long epoch, long revision, long takeoverEpoch,
                        long inheritedRevision) {

    /** The pure rule: a write acknowledged under an older epoch above what the new active inherited is lost. */
    static boolean isLost(long ackEpoch, long ackRevision, long takeoverEpoch, long inheritedRevision) {
        return ackEpoch < takeoverEpoch && inheritedRevision >= 0 && ackRevision > inheritedRevision;
    }

    /** How many lost writes a log line names one by one; the lost-write listener receives every one. */
    static final int KEYS_NAMED_IN_LOG = 10;

    /**
     * The log line for writes one takeover lost (all of one partition): each key with the revision it was
     * acknowledged at and what the new owner inherited of its segment, the first {@code maxNamed} of them by name.
     */
    static String describe(List<LostWrite> lost, int maxNamed) {
        LostWrite first = lost.get(0);
        StringBuilder line = new StringBuilder()
                .append(lost.size()).append(" acknowledged ASYNC write").append(lost.size() == 1 ? " was" : "s were")
                .append(" lost when epoch ").append(first.takeoverEpoch()).append(" took partition ")
                .append(first.partition()).append(" over: ");
        int named = Math.min(maxNamed, lost.size());
        for (int i = 0; i < named; i++) {
            LostWrite write = lost.get(i);
            line.append(i == 0 ? "" : ", ").append('\'').append(write.key()).append("' at revision ")
                    .append(write.revision()).append(" (the new owner inherited ").append(write.inheritedRevision())
                    .append(')');
        }
        if (lost.size() > named) {
            line.append(" and ").append(lost.size() - named).append(" more");
        }
        return line.toString();
    }
}
