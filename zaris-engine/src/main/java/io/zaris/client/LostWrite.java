package io.zaris.client;

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
}
