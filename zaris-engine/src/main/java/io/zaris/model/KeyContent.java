package io.zaris.model;

import java.util.List;

/**
 * A key's whole value, of any type, apart from the key and its expiry: what DUMP writes and RESTORE and RENAME
 * install. {@code elements}: a string's value; a hash's fields and values alternately; a list's elements in order;
 * a set's members; a sorted set's members and their 8-byte scores ({@link SortedSetScores#encode}) alternately. A
 * collection is never empty (Redis has no empty collections).
 */
public record KeyContent(Type type, List<byte[]> elements) {

    /** The value types; {@link #code} is part of the {@link DumpPayload} format and must never change. */
    public enum Type {
        STRING(0), HASH(1), LIST(2), SET(3), SORTED_SET(4);

        private final int code;

        Type(int code) {
            this.code = code;
        }

        public int code() {
            return code;
        }

        /** {@code null} for a code no type has. */
        public static Type fromCode(int code) {
            for (Type type : values()) {
                if (type.code == code) {
                    return type;
                }
            }
            return null;
        }

        /** Whether the elements come in pairs (field and value, member and score). */
        boolean paired() {
            return this == HASH || this == SORTED_SET;
        }
    }
}
