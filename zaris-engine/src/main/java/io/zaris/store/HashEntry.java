package io.zaris.store;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A key holding a hash: its fields, its expiry, and the bytes they are charged for. Unlike a string, a hash is
 * changed in place, field by field, so a write to a large hash costs (and ships) what it changed.
 *
 * <p>Concurrency: the fields are read and written only under the segment's write lock (hash reads take it too: a
 * multi-field read sees one state of the hash); the expiry and TTL slot are kept as {@link CollectionEntry} says.
 *
 * <p>Fields keep insertion order (as Redis's small hashes do), so HGETALL on every copy lists them alike.
 */
class HashEntry extends CollectionEntry {

    /**
     * Bytes charged per field on top of its name and value: a {@link LinkedHashMap} entry (header, hash, key,
     * value, next, before, after: 40), its share of the table (8), the field's {@link ByteKey} (24) and the two
     * array headers with alignment (2 × 20).
     */
    static final int FIELD_OVERHEAD_BYTES = 112;

    /** Guarded by the segment's write lock. */
    private final Map<ByteKey, byte[]> fields = new LinkedHashMap<>();

    HashEntry(long version, long expiresAtMillis, long nowMillis) {
        super(version, expiresAtMillis, nowMillis);
    }

    static long fieldBytes(ByteKey field, byte[] value) {
        return FIELD_OVERHEAD_BYTES + field.bytes().length + value.length;
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
        return fields.get(field);
    }

    /** Sets a field; returns the change of the charged bytes. */
    long put(ByteKey field, byte[] value) {
        return chargePut(field, replace(field, value), value);
    }

    /** Sets a field, uncharged: the caller charges it with {@link #chargePut}. Returns the field's previous value. */
    final byte[] replace(ByteKey field, byte[] value) {
        return fields.put(field, value);
    }

    /** Charges a field set from {@code previous} ({@code null}: new) to {@code value}; returns the change. */
    final long chargePut(ByteKey field, byte[] previous, byte[] value) {
        long delta = fieldBytes(field, value) - (previous == null ? 0 : fieldBytes(field, previous));
        charge(delta);
        return delta;
    }

    /** Removes a field; returns the bytes freed, 0 when it was absent. */
    long remove(ByteKey field) {
        byte[] previous = fields.remove(field);
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

    /** Field names and values alternately, in insertion order. */
    List<byte[]> flatten() {
        List<byte[]> out = new ArrayList<>(fields.size() * 2);
        for (Map.Entry<ByteKey, byte[]> field : fields.entrySet()) {
            out.add(field.getKey().bytes());
            out.add(field.getValue());
        }
        return out;
    }

    Iterable<Map.Entry<ByteKey, byte[]>> fields() {
        return fields.entrySet();
    }
}
