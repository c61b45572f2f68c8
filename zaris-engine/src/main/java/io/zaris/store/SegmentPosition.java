package io.zaris.store;

/**
 * Where one segment's copy stands at an instant.
 *
 * @param revision       the copy's last revision
 * @param foreignChanges how often the copy was changed by anything but this node's own writes (shipped changes,
 *                       snapshot chunks, a drop): equal readings mean it has only grown by its own writes between
 * @param newestEpoch    the newest epoch among the changes the copy remembers, {@code -1} when it remembers none (a
 *                       snapshot replaced its history and nothing was written since)
 */
public record SegmentPosition(long revision, long foreignChanges, long newestEpoch) {
}
