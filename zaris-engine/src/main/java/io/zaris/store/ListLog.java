package io.zaris.store;

import io.zaris.model.Change;
import java.util.Arrays;

/**
 * How the op log keeps a list change: its position and element packed into the logged change's field (one byte of
 * position length, the position text, then the element). Unlike a hash field's value, which a tail reads back from
 * the hash, a list element cannot be found again once later changes moved it, so the log keeps it; the log's byte
 * bound counts it like any field.
 */
final class ListLog {

    private ListLog() {
    }

    static ByteKey field(Change change) {
        byte[] position = change.field();
        byte[] element = change.value() == null ? new byte[0] : change.value();
        byte[] packed = new byte[1 + position.length + element.length];
        packed[0] = (byte) position.length; // a position is at most two 19-digit numbers and a space
        System.arraycopy(position, 0, packed, 1, position.length);
        System.arraycopy(element, 0, packed, 1 + position.length, element.length);
        return new ByteKey(packed);
    }

    /** The change as a replica applies it, unpacked from what {@link #field} logged. */
    static Change change(LoggedChange logged) {
        byte[] packed = logged.field().bytes();
        int length = packed[0];
        byte[] position = Arrays.copyOfRange(packed, 1, 1 + length);
        byte[] element = Arrays.copyOfRange(packed, 1 + length, packed.length);
        long[] at = io.zaris.model.ListPosition.parse(position);
        byte[] key = logged.key().bytes();
        return switch (logged.kind()) {
            case LIST_INSERT -> Change.listInsert(logged.revision(), logged.epoch(), key, at[0], element,
                    logged.expiresAtMillis());
            case LIST_REMOVE -> Change.listRemove(logged.revision(), logged.epoch(), key, at[0], at[1]);
            case LIST_SET -> Change.listSet(logged.revision(), logged.epoch(), key, at[0], element, logged.expiresAtMillis());
            default -> throw new IllegalArgumentException(logged.kind() + " is not a list change");
        };
    }
}
