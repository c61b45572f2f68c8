package io.zaris.store;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * A key holding a hash: its fields, its expiry, and the bytes they are charged for. Unlike a string, a hash is
 * changed in place, field by field, so a write to a large hash costs (and ships) what it changed.
 *
 * <p>Concurrency: the fields are read and written only under the segment's write lock (hash reads take it too: a
 * multi-field read sees one state of the hash); the expiry and TTL slot are kept as {@link CollectionEntry} says.
 *
 * <p>The fields are a {@link FieldTable}: up to {@value FieldTable#COMPACT_LIMIT} of them list in the order they were
 * first set (as Redis's small hashes do), so HGETALL on every copy lists them alike; past that in the table's order,
 * which a copy built from a snapshot may not share (as with Redis's large hashes). The table grows progressively, so
 * no single write rehashes a large hash under the segment's lock.
 */
class HashEntry extends CollectionEntry {

    /**
     * Bytes charged per field on top of its name and value: the two arrays' headers with alignment (2 × 20) and its
     * share of the {@link FieldTable}'s slots, each a name and a value reference and a cached hash (12 bytes), about
     * two slots per field (the table is between three eighths and three quarters full once hashed, at most half
     * empty while compact).
     */
    static final int FIELD_OVERHEAD_BYTES = 64;

    /** Guarded by the segment's write lock. */
    private final FieldTable fields;
    /** {@link #FIELD_OVERHEAD_BYTES}, or a set's {@link SetEntry#MEMBER_OVERHEAD_BYTES}. */
    private final int overheadBytes;

    HashEntry(long version, long expiresAtMillis, long nowMillis) {
        this(version, expiresAtMillis, nowMillis, true);
    }

    /** @param withValues whether fields carry values; a set's members do not, and are charged less */
    HashEntry(long version, long expiresAtMillis, long nowMillis, boolean withValues) {
        super(version, expiresAtMillis, nowMillis);
        this.fields = new FieldTable(withValues);
        this.overheadBytes = withValues ? FIELD_OVERHEAD_BYTES : SetEntry.MEMBER_OVERHEAD_BYTES;
    }

    private long fieldBytes(ByteKey field, byte[] value) {
        return overheadBytes + field.bytes().length + value.length;
    }

    @Override
    String typeName() {
        return "hash";
    }

    /** Whether this is a {@link SetEntry}: members only, each a field without a value. */
    boolean isSet() {
        return false;
    }

    /** Whether this is a {@link SortedSetEntry}: members with scores. */
    boolean isSortedSet() {
        return false;
    }

    /** The field's value, or {@code null}. */
    byte[] get(ByteKey field) {
        return fields.get(field.bytes(), field.hashCode());
    }

    /** Sets a field; returns the change of the charged bytes. */
    long put(ByteKey field, byte[] value) {
        return chargePut(field, replace(field, value), value);
    }

    /**
     * Sets a field with one lookup of it, uncharged: the caller charges it with {@link #chargePut}. Returns the field's
     * previous value, {@code null} when it is new.
     */
    final byte[] replace(ByteKey field, byte[] value) {
        return fields.put(field.bytes(), field.hashCode(), value);
    }

    /** Charges a field set from {@code previous} ({@code null}: new) to {@code value}; returns the change. */
    final long chargePut(ByteKey field, byte[] previous, byte[] value) {
        long delta = fieldBytes(field, value) - (previous == null ? 0 : fieldBytes(field, previous));
        charge(delta);
        return delta;
    }

    /** Removes a field; returns the bytes freed, 0 when it was absent. */
    long remove(ByteKey field) {
        byte[] previous = fields.remove(field.bytes(), field.hashCode());
        if (previous == null) {
            return 0;
        }
        long freed = fieldBytes(field, previous);
        charge(-freed);
        return freed;
    }

    int size() {
        return fields.size();
    }

    /** Field names and values alternately, in the table's order. */
    List<byte[]> flatten() {
        List<byte[]> out = new ArrayList<>(fields.size() * 2);
        fields.forEach((name, value) -> {
            out.add(name);
            out.add(value);
        });
        return out;
    }

    /** The field names, in the table's order. */
    List<byte[]> names() {
        List<byte[]> out = new ArrayList<>(fields.size());
        fields.forEach((name, value) -> out.add(name));
        return out;
    }

    /** Hands every field's name and value to {@code visitor} once, in the table's order; nothing may change the hash meanwhile. */
    void forEachField(BiConsumer<byte[], byte[]> visitor) {
        fields.forEach(visitor);
    }
}
