package io.zaris.store;

/**
 * What the op log keeps of one change (in its arrays; this record is how a tail reads it back): everything
 * but a put's value, which its entry in the store holds.
 * When a tail is shipped, {@link Segment} reads each put's value back from the key's entry, or ships the put
 * as superseded when the key changed again later in the tail. Keeping no values keeps the log small and
 * lets a request's value array die young: a log of values was what every young collection copied.
 *
 * @param revision        the segment revision of the change; a put's entry carries it as its version
 * @param epoch           the partition epoch the change was made under
 * @param kind            a put, a removal, or a change a replica received already superseded
 * @param expiresAtMillis a put's wall-clock expiry, {@code 0} for none
 */
record LoggedChange(long revision, long epoch, ByteKey key, Kind kind, long expiresAtMillis) {

    /** Bookkeeping bytes per logged change beyond its key, for the log's byte bound. */
    static final int OVERHEAD_BYTES = 48;

    enum Kind { PUT, REMOVAL, SUPERSEDED }

    long sizeBytes() {
        return sizeBytes(key.bytes().length);
    }

    static int sizeBytes(int keyLength) {
        return OVERHEAD_BYTES + keyLength;
    }
}
