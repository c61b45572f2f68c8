package io.zaris.chaos;

import io.zaris.client.WatchGap;

/**
 * What one watcher of a chaos run was handed, in the order its listener was called (one delivery thread per client,
 * so the history keeps each watcher's events in delivery order), with the time of the run's clock it was handed.
 */
sealed interface WatchEvent {

    /** The watcher (a client id of the run). */
    int watcher();

    long nanos();

    /** A change of a watched key: its new version, and whether it removed the key. */
    record Change(int watcher, String key, long version, boolean deleted, long nanos) implements WatchEvent {
    }

    /**
     * A notice that changes were not handed on: of {@code segment} ({@code -1}: any) after {@code afterRevision} up
     * to {@code upToRevision} ({@code -1}: not known), as {@link WatchGap} tells it.
     */
    record Gap(int watcher, WatchGap.Reason reason, int segment, long afterRevision, long upToRevision, long nanos)
            implements WatchEvent {

        static Gap of(int watcher, WatchGap gap, long nanos) {
            return new Gap(watcher, gap.reason(), gap.segment(), gap.afterRevision(), gap.upToRevision(), nanos);
        }
    }

    /**
     * One watch of a run: which client, which prefix, when every segment it covers was live (so every change from
     * then on is owed to it) and when it was closed, once it had caught up after healing.
     */
    record Span(int watcher, String prefix, long liveNanos, long closedNanos) {
    }
}
