package io.zaris.store;

/**
 * What the op log keeps of one change (in its arrays; this record is how a tail reads it back): everything
 * but a put's value, which its entry in the store holds (a field put's value: its hash's field). A list change is
 * the exception: it keeps the change itself, element included, because list changes replay only in order (see
 * {@link ListLog}).
 * When a tail is shipped, {@link Segment} reads each put's value back from the key's entry, or ships the put
 * as superseded when the key (the field) changed again later in the tail. Keeping no values keeps the log small
 * and lets a request's value array die young: a log of values was what every young collection copied.
 *
 * @param revision        the segment revision of the change; a put's entry carries it as its version
 * @param epoch           the partition epoch the change was made under
 * @param key             the key changed
 * @param field           the hash field of a field change, the set member of a member put, the sorted-set member of a
 *                        score put, the destination of a rename, else {@code null}
 * @param kind            a put, a removal, a field put or removal, an expiry, a rename, or a change a replica
 *                        received already superseded
 * @param expiresAtMillis the key's wall-clock expiry after a put, field put, expiry or rename (the destination's),
 *                        {@code 0} for none
 * @param listChange      a list change as it was made or received ({@link ListLog}), else {@code null}
 */
record LoggedChange(long revision, long epoch, ByteKey key, ByteKey field, Kind kind, long expiresAtMillis,
                    io.zaris.model.Change listChange) {

    /** Bookkeeping bytes per logged change beyond its key and field, for the log's byte bound. */
    static final int OVERHEAD_BYTES = 48;

    enum Kind { PUT, REMOVAL, SUPERSEDED, FIELD_PUT, FIELD_REMOVAL, EXPIRY, MEMBER_PUT, LIST_INSERT, LIST_REMOVE, LIST_SET,
        SCORE_PUT, RENAME }

    long sizeBytes() {
        return sizeBytes(key.bytes().length, listChange != null ? ListLog.fieldBytes(listChange)
                : field == null ? 0 : field.bytes().length);
    }

    static int sizeBytes(int keyLength, int fieldLength) {
        return OVERHEAD_BYTES + keyLength + fieldLength;
    }
}
