package io.zaris.store;

import io.zaris.model.Change;
import java.util.Arrays;

/**
 * How the op log keeps a list change: the change itself (its position and element, both arrays nothing writes to once
 * the change is made), in the logged change's {@link LoggedChange#listChange}. Unlike a hash field's value, which a
 * tail reads back from the hash, a list element cannot be found again once later changes moved it, so the log keeps it;
 * the log's byte bound counts its position and element like a field. The element is the array the list holds, so
 * keeping it costs the log no copy: a list change's element is always an array of its own (a replica decodes it into
 * a fresh array, not a reused one).
 */
final class ListLog {

    private ListLog() {
    }

    /** The change as a replica applies it: the one logged. */
    static Change change(LoggedChange logged) {
        if (logged.listChange() == null) {
            throw new IllegalArgumentException(logged.kind() + " is not a list change");
        }
        return logged.listChange();
    }

    /** The bytes the log's bound counts for a list change beyond its key: its position and element. */
    static int fieldBytes(Change change) {
        return change.field().length + (change.value() == null ? 0 : change.value().length);
    }
}
