package io.zaris.model;

/**
 * One change of one key, as replication ships it: the effect, not the command, so applying it is
 * deterministic on every replica (an INCREMENT ships the resulting value, an HINCRBY the field's new value).
 *
 * <p>A change shipped from the op log may be <em>superseded</em>: the key (or, for a field change, the field)
 * changed again later in the same tail, and the op log, which does not keep values, can no longer say what this
 * change wrote. Applying it only advances the revision; the later change sets the key. A tail is applied whole
 * under one lock, or cut only where no superseded change waits for a later one ({@code TailCut}), so nobody sees
 * the key between.
 *
 * <p>A hash changes field by field: a {@link Kind#FIELD_PUT} sets one field (creating the hash when the key is
 * absent), a {@link Kind#FIELD_REMOVAL} removes one (a hash left without fields no longer exists), an
 * {@link Kind#EXPIRY} sets the whole key's expiry. So a write to a large hash ships what it changed, not the hash.
 * A set changes member by member the same way: a {@link Kind#MEMBER_PUT} adds one member (creating the set when the
 * key is absent) and a {@link Kind#FIELD_REMOVAL} removes one (its field is the member).
 * A list changes by position: a {@link Kind#LIST_INSERT} puts one element at an index, a {@link Kind#LIST_REMOVE}
 * removes a run of elements, a {@link Kind#LIST_SET} replaces one; the positions (see {@link ListPosition}) are
 * absolute, so a replica at the same revision, holding the same list, makes the same change.
 * A sorted set likewise: a
 * {@link Kind#SCORE_PUT} sets one member's score, whatever command decided it (ZADD, ZINCRBY), and a
 * {@link Kind#FIELD_REMOVAL} removes one member (ZREM, ZPOPMIN, ZREMRANGEBYSCORE ship each removal they made).
 *
 * <p>A {@link Kind#RENAME} moves the whole value at the key (the source) to the key its field names (the
 * destination), of any type, with the expiry it carries: one change however large the value, applied on a replica
 * as the same move. A replica that does not hold the source when it applies one only removes the destination: it can
 * miss the source only where the op log shipped the source's writes superseded, and then a later change of the same
 * tail sets (or removes) every part of the destination that those writes set (see {@code Segment#tailSince}).
 *
 * @param revision        the segment revision this change received; also the key's new version
 * @param epoch           the partition epoch under which the active owner made the change
 * @param kind            what the change does
 * @param key             the key changed
 * @param field           the hash field of a field change, the set member of a member put, the position of a list
 *                        change, the destination of a rename, else {@code null}
 * @param value           the new value of a put or field put, else {@code null}
 * @param expiresAtMillis the key's wall-clock expiry after the change ({@code 0} for none; a rename's: the
 *                        destination's); ignored by removals
 */
public record Change(long revision, long epoch, Kind kind, byte[] key, byte[] field, byte[] value, long expiresAtMillis) {

    /** Bookkeeping bytes per change beyond key, field and value, for accounting what a tail or snapshot holds. */
    public static final int OVERHEAD_BYTES = 64;

    /** What a change does to its key. */
    public enum Kind {
        /** The key holds a string value (whatever it held before). */
        PUT,
        /** The key no longer exists, whatever its type. */
        REMOVAL,
        /** A later change of the same tail sets the key (or field): only the revision advances. */
        SUPERSEDED,
        /** One field of the hash at the key is set; an absent key becomes a hash. */
        FIELD_PUT,
        /** One field of the hash at the key is removed; a hash without fields is removed. */
        FIELD_REMOVAL,
        /** The key keeps its value and gets a new expiry. */
        EXPIRY,
        /** One member (the field, without a value) of the set at the key is added; an absent key becomes a set. */
        MEMBER_PUT,
        /**
         * One element (the value) is inserted into the list at the key before the index the field names (the
         * length: at the tail); an absent key becomes a list.
         */
        LIST_INSERT,
        /** A run of elements (the field names its first index and its length) leaves the list; an emptied list is removed. */
        LIST_REMOVE,
        /** The element at the index the field names is replaced by the value. */
        LIST_SET,
        /**
         * One member of the sorted set at the key gets a score (the value: its 8 IEEE 754 bytes); an absent key becomes
         * a sorted set.
         */
        SCORE_PUT,
        /**
         * The value at the key, of any type, moves to the key the field names (which loses what it held) and takes the
         * expiry; a replica holding no value at the key only removes the destination (see the class comment).
         */
        RENAME
    }

    /** A put (with {@code value}) or a removal (with {@code null}). */
    public Change(long revision, long epoch, byte[] key, byte[] value, long expiresAtMillis) {
        this(revision, epoch, value == null ? Kind.REMOVAL : Kind.PUT, key, null, value, expiresAtMillis);
    }

    public Change {
        if (kind == null || key == null) {
            throw new IllegalArgumentException("a change needs a kind and a key");
        }
        boolean needsValue = kind == Kind.PUT || kind == Kind.FIELD_PUT || kind == Kind.LIST_INSERT || kind == Kind.LIST_SET
                || kind == Kind.SCORE_PUT;
        if (needsValue != (value != null)) {
            throw new IllegalArgumentException("a " + kind + " change " + (needsValue ? "needs" : "carries no") + " value");
        }
        boolean needsField = kind == Kind.FIELD_PUT || kind == Kind.FIELD_REMOVAL || kind == Kind.MEMBER_PUT
                || kind == Kind.LIST_INSERT || kind == Kind.LIST_REMOVE || kind == Kind.LIST_SET || kind == Kind.SCORE_PUT
                || kind == Kind.RENAME;
        if (needsField != (field != null)) {
            throw new IllegalArgumentException("a " + kind + " change " + (needsField ? "needs" : "carries no") + " field");
        }
    }

    /** A change of {@code key} that a later change in the same tail overwrites. */
    public static Change superseded(long revision, long epoch, byte[] key) {
        return new Change(revision, epoch, Kind.SUPERSEDED, key, null, null, 0);
    }

    /** Sets {@code field} of the hash at {@code key}, which expires at {@code expiresAtMillis} (0: never). */
    public static Change fieldPut(long revision, long epoch, byte[] key, byte[] field, byte[] value, long expiresAtMillis) {
        return new Change(revision, epoch, Kind.FIELD_PUT, key, field, value, expiresAtMillis);
    }

    /** Adds {@code member} to the set at {@code key}, which expires at {@code expiresAtMillis} (0: never). */
    public static Change memberPut(long revision, long epoch, byte[] key, byte[] member, long expiresAtMillis) {
        return new Change(revision, epoch, Kind.MEMBER_PUT, key, member, null, expiresAtMillis);
    }

    /** Gives {@code member} of the sorted set at {@code key} a score (its 8 bytes), the key expiring at {@code expiresAtMillis}. */
    public static Change scorePut(long revision, long epoch, byte[] key, byte[] member, byte[] score, long expiresAtMillis) {
        return new Change(revision, epoch, Kind.SCORE_PUT, key, member, score, expiresAtMillis);
    }

    /** Removes {@code field} of the hash (or member of the set) at {@code key}. */
    public static Change fieldRemoval(long revision, long epoch, byte[] key, byte[] field) {
        return new Change(revision, epoch, Kind.FIELD_REMOVAL, key, field, null, 0);
    }

    /** Inserts {@code element} before {@code index} of the list at {@code key} (which expires at {@code expiresAtMillis}). */
    public static Change listInsert(long revision, long epoch, byte[] key, long index, byte[] element, long expiresAtMillis) {
        return new Change(revision, epoch, Kind.LIST_INSERT, key, ListPosition.of(index), element, expiresAtMillis);
    }

    /** Removes {@code count} elements from {@code index} of the list at {@code key}. */
    public static Change listRemove(long revision, long epoch, byte[] key, long index, long count) {
        return new Change(revision, epoch, Kind.LIST_REMOVE, key, ListPosition.of(index, count), null, 0);
    }

    /** Replaces the element at {@code index} of the list at {@code key} by {@code element}. */
    public static Change listSet(long revision, long epoch, byte[] key, long index, byte[] element, long expiresAtMillis) {
        return new Change(revision, epoch, Kind.LIST_SET, key, ListPosition.of(index), element, expiresAtMillis);
    }

    /**
     * Moves the value at {@code source} to {@code destination} (another key of the same segment), which then expires
     * at {@code expiresAtMillis} (0: never).
     */
    public static Change rename(long revision, long epoch, byte[] source, byte[] destination, long expiresAtMillis) {
        return new Change(revision, epoch, Kind.RENAME, source, destination, null, expiresAtMillis);
    }

    /** Gives the value at {@code key} the expiry {@code expiresAtMillis} (0: never). */
    public static Change expiry(long revision, long epoch, byte[] key, long expiresAtMillis) {
        return new Change(revision, epoch, Kind.EXPIRY, key, null, null, expiresAtMillis);
    }

    public boolean superseded() {
        return kind == Kind.SUPERSEDED;
    }

    /** The whole key is removed. */
    public boolean isRemoval() {
        return kind == Kind.REMOVAL;
    }

    /** The change carries a value: a put or a field put. */
    public boolean hasValue() {
        return value != null;
    }

    /** Approximate heap footprint, for bounding the op log by bytes. */
    public long sizeBytes() {
        return OVERHEAD_BYTES + key.length + (field == null ? 0 : field.length) + (value == null ? 0 : value.length);
    }
}
