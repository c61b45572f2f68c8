package io.zaris.store;

import java.util.List;

/**
 * Where a tracker of one segment starts: the segment's position when it subscribed, and whether it could resume
 * from the position it gave (then {@code changedKeys} are the keys changed since, which it must drop).
 *
 * @param resumed     whether this copy's history holds the asked position and every change after it; when
 *                    {@code false} the tracker cannot prove anything it kept current and must drop it
 * @param revision    the segment's revision when the tracker subscribed: every later change is pushed to it
 * @param epoch       the epoch of the change at {@code revision}, {@code -1} when this copy does not remember it
 * @param changedKeys keys changed after the asked position up to {@code revision} (empty unless resumed), each once
 */
public record TrackStart(boolean resumed, long revision, long epoch, List<byte[]> changedKeys) {

    public TrackStart {
        changedKeys = List.copyOf(changedKeys);
    }
}
