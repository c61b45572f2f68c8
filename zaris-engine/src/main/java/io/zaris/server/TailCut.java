package io.zaris.server;

import io.zaris.model.Change;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a log tail sent in parts (a PULL answer) may end. A part holds changes up to {@code maxBytes}
 * ({@link Change#sizeBytes()}), at least one; and it must not end between a superseded change and the later
 * change of the same key that replaces it: the puller applies each part as it arrives, and a part ending
 * there would leave the key with a value older than the revision it claims (for good, if the next part never
 * comes). So a part that would end there is cut back to just before its first such change, or, when that
 * leaves nothing, extended until the key is set again.
 */
final class TailCut {

    private TailCut() {
    }

    /** How many changes from the start of {@code tail} the next part takes; 0 only for an empty tail. */
    static int partLength(List<Change> tail, long maxBytes) {
        // key -> index of its earliest superseded change not yet followed by a change setting the key
        Map<ByteBuffer, Integer> waiting = new HashMap<>();
        long bytes = 0;
        int length = 0;
        while (length < tail.size()) {
            Change change = tail.get(length);
            if (length > 0 && bytes + change.sizeBytes() > maxBytes) {
                break;
            }
            bytes += change.sizeBytes();
            track(waiting, change, length);
            length++;
        }
        if (waiting.isEmpty()) {
            return length;
        }
        int firstWaiting = waiting.values().stream().min(Integer::compare).orElseThrow();
        if (firstWaiting > 0) {
            return firstWaiting;
        }
        while (!waiting.isEmpty() && length < tail.size()) {
            track(waiting, tail.get(length), length);
            length++;
        }
        return length;
    }

    private static void track(Map<ByteBuffer, Integer> waiting, Change change, int index) {
        ByteBuffer key = ByteBuffer.wrap(change.key()); // compares contents
        if (change.kind() == Change.Kind.RENAME) {
            // The source's value moves on: a superseded change of it now waits for a change of the destination, whose
            // own superseded changes this rename resolves (it replaces the destination's value).
            Integer sourceWaiting = waiting.remove(key);
            ByteBuffer destination = ByteBuffer.wrap(change.field());
            waiting.remove(destination);
            if (sourceWaiting != null) {
                waiting.put(destination, sourceWaiting);
            }
        } else if (change.superseded()) {
            waiting.putIfAbsent(key, index);
        } else if (change.kind() != Change.Kind.EXPIRY) { // a new expiry sets no value a superseded change waits for

            waiting.remove(key);
        }
    }
}
