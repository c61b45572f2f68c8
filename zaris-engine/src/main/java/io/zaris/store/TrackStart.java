package io.zaris.store;

import java.util.List;

/**
 * Where a tracker of one segment starts: the segment's position when it subscribed, and whether it could resume
 * from the position it gave (then {@code changes} are the changes since, in revision order).
 *
 * @param resumed  whether this copy's history holds the asked position and every change after it; when
 *                 {@code false} the tracker cannot prove anything it kept current and must drop it
 * @param revision the segment's revision when the tracker subscribed: every later change is pushed to it
 * @param epoch    the epoch of the change at {@code revision}, {@code -1} when this copy does not remember it
 * @param changes  the changes after the asked position up to {@code revision} (empty unless resumed)
 */
public record TrackStart(boolean resumed, long revision, long epoch, List<Change> changes) {

    public TrackStart {
        changes = List.copyOf(changes);
    }

    /** One change of the segment: its revision, its key, and whether it removed the key. */
    public record Change(long revision, byte[] key, boolean removal) {
    }
}
