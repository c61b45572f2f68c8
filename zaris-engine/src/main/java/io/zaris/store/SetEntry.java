package io.zaris.store;

/**
 * A key holding a set: a {@link HashEntry} whose fields are the members and carry no value (each reads as the one
 * shared empty array, and the table keeps no value slots). Everything a hash has — change in place member by member, memory charged per member, the
 * TTL on the whole key, eviction and expiry whole — a set has the same way, under the same lock; only its type
 * differs, so a hash command meets a set with WRONGTYPE and a set command meets a hash so.
 *
 * <p>Up to {@value FieldTable#COMPACT_LIMIT} members list in the order they were first added, so SMEMBERS lists them
 * alike on every copy; past that in the table's order (see {@link HashEntry}).
 */
final class SetEntry extends HashEntry {

    /** The value every member reads as; never written to. */
    static final byte[] MEMBER = FieldTable.NO_VALUE;

    /**
     * Bytes charged per member on top of its bytes: its array's header with alignment (20) and its share of the
     * {@link FieldTable}'s slots, each a member reference and a cached hash (8 bytes), about two slots per member.
     */
    static final int MEMBER_OVERHEAD_BYTES = 36;

    SetEntry(long version, long expiresAtMillis, long nowMillis) {
        super(version, expiresAtMillis, nowMillis, false);
    }

    @Override
    boolean isSet() {
        return true;
    }

    /** Whether {@code member} is in the set. */
    boolean contains(ByteKey member) {
        return get(member) != null;
    }

    /** Adds a member with one lookup of it; returns the change of the charged bytes (0 when it was there). */
    long add(ByteKey member) {
        return put(member, MEMBER);
    }
}
