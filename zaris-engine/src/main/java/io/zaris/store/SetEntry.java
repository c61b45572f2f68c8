package io.zaris.store;

/**
 * A key holding a set: a {@link HashEntry} whose fields are the members and carry no value (each maps to the one
 * shared empty array). Everything a hash has — change in place member by member, memory charged per member, the
 * TTL on the whole key, eviction and expiry whole — a set has the same way, under the same lock; only its type
 * differs, so a hash command meets a set with WRONGTYPE and a set command meets a hash so.
 *
 * <p>Members keep insertion order, so SMEMBERS lists them alike on every copy.
 */
final class SetEntry extends HashEntry {

    /** The value every member maps to; never written to. */
    static final byte[] MEMBER = new byte[0];

    SetEntry(long version, long expiresAtMillis, long nowMillis) {
        super(version, expiresAtMillis, nowMillis);
    }

    @Override
    boolean isSet() {
        return true;
    }

    /** Whether {@code member} is in the set. */
    boolean contains(ByteKey member) {
        return get(member) != null;
    }

    /** Adds a member; returns the change of the charged bytes (0 when it was there). */
    long add(ByteKey member) {
        return put(member, MEMBER);
    }
}
