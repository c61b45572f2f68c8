package io.zaris.bench.peers;

/**
 * Acknowledged writes a cluster lost: a key whose value read back carries a lower sequence number than the
 * highest the client acknowledged lost the writes in between (all of them were acknowledged in order, since a
 * key's writes are sequential). A higher number read back is not a loss: a write whose outcome the client never
 * learned (failed, timed out, or still in flight) may still have been applied.
 *
 * @param keys       keys that lost at least one acknowledged write
 * @param writes     acknowledged writes lost, summed over those keys
 * @param unreadable keys whose read-back failed or returned a value no write of the run carried; not judged
 */
record LostWrites(int keys, long writes, int unreadable) {

    /** What {@link #count} takes for a key that could not be read back. */
    static final long UNREADABLE = -1;

    /**
     * @param lastAcknowledged per key, the highest acknowledged sequence number ({@link SequenceValue#ABSENT} if none)
     * @param readBack         per key, the sequence number read back ({@link SequenceValue#ABSENT} if the key was
     *                         absent, {@link #UNREADABLE} if it could not be read)
     */
    static LostWrites count(long[] lastAcknowledged, long[] readBack) {
        if (lastAcknowledged.length != readBack.length) {
            throw new IllegalArgumentException(lastAcknowledged.length + " keys acknowledged but " + readBack.length + " read back");
        }
        int keys = 0;
        long writes = 0;
        int unreadable = 0;
        for (int k = 0; k < readBack.length; k++) {
            if (readBack[k] < SequenceValue.ABSENT) {
                unreadable++;
            } else if (readBack[k] < lastAcknowledged[k]) {
                keys++;
                writes += lastAcknowledged[k] - readBack[k];
            }
        }
        return new LostWrites(keys, writes, unreadable);
    }
}
