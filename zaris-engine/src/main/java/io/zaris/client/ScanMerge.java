package io.zaris.client;

import io.zaris.protocol.ResponseCodec.ScanPage;
import io.zaris.transport.ZarisException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * One cluster-wide SCAN: the cursor of each node, and the union of the keys their pages reported. A key
 * reported by two nodes (its segment changed owner between their pages) is kept once.
 *
 * <p>Pages of different nodes arrive on their connections' event loops at the same time, so every method
 * holds this object's lock; each node's own pages come one after the other (the next page is asked for
 * only once the previous one was added).
 */
final class ScanMerge {

    /** A node's cursor once its last page was added. */
    static final int DONE = -1;

    /** Node id → the cursor to ask that node for next, or {@link #DONE}. */
    private final Map<String, Integer> cursors = new HashMap<>();
    private final Set<String> keys = new LinkedHashSet<>();

    /** Starts every node at cursor 0. */
    ScanMerge(Collection<String> nodes) {
        for (String node : nodes) {
            cursors.put(node, 0);
        }
    }

    /** The cursor to ask {@code node} for next, or {@link #DONE}. */
    synchronized int cursor(String node) {
        Integer cursor = cursors.get(node);
        if (cursor == null) {
            throw new IllegalArgumentException("node " + node + " is not part of this scan");
        }
        return cursor;
    }

    /**
     * Adds the page {@code node} answered for its current cursor and advances that node's cursor.
     *
     * @return whether the node has more pages
     * @throws ZarisException when the node's next cursor does not move forward (the scan would never end)
     */
    synchronized boolean add(String node, ScanPage page) {
        int asked = cursor(node);
        if (asked == DONE) {
            throw new IllegalStateException("node " + node + " already answered its last scan page");
        }
        if (!page.isLast() && page.nextCursor() <= asked) {
            throw new ZarisException("node " + node + " answered SCAN at cursor " + asked + " with next cursor "
                    + page.nextCursor() + ", which does not move forward");
        }
        for (byte[] key : page.keys()) {
            keys.add(new String(key, StandardCharsets.UTF_8));
        }
        cursors.put(node, page.isLast() ? DONE : page.nextCursor());
        return !page.isLast();
    }

    /** Whether every node answered its last page. */
    synchronized boolean isComplete() {
        return cursors.values().stream().allMatch(cursor -> cursor == DONE);
    }

    /** A copy of the keys reported so far, each once, in the order first reported. */
    synchronized Set<String> keys() {
        return new LinkedHashSet<>(keys);
    }
}
