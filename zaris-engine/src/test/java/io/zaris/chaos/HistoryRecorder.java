package io.zaris.chaos;

import io.zaris.client.LostWrite;
import io.zaris.model.AckMode;
import io.zaris.time.TimeSource;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;

/**
 * Collects a run's history as it happens; {@link #history} hands the checker a snapshot.
 *
 * <p>Concurrency: workload threads append operations, client network threads append named losses and
 * retried attempts, all at once; everything here is a concurrent collection. Every time comes from the one
 * injected clock, so the invoke and complete times of all clients are comparable.
 */
final class HistoryRecorder {

    private final TimeSource clock;
    private final ConcurrentLinkedQueue<Op> ops = new ConcurrentLinkedQueue<>();
    private final Set<String> namedLosses = ConcurrentHashMap.newKeySet();
    private final Map<Reply, LongAdder> retriedAttempts = new ConcurrentHashMap<>();
    /** Appended by each watcher's delivery thread, so each watcher's events stay in delivery order. */
    private final ConcurrentLinkedQueue<WatchEvent> watchEvents = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<WatchEvent.Span> watchSpans = new ConcurrentLinkedQueue<>();

    HistoryRecorder(TimeSource clock) {
        this.clock = clock;
    }

    long now() {
        return clock.nanoTime();
    }

    void record(Op op) {
        ops.add(op);
    }

    void watched(WatchEvent event) {
        watchEvents.add(event);
    }

    void watchSpan(WatchEvent.Span span) {
        watchSpans.add(span);
    }

    /** A client's lost-write listener (called on a network thread). */
    void namedLost(LostWrite lost) {
        namedLosses.add(History.lossName(lost.key(), lost.revision()));
    }

    /** A client retried an attempt that failed so. */
    void retried(Reply kind) {
        retriedAttempts.computeIfAbsent(kind, k -> new LongAdder()).increment();
    }

    /** The history so far; {@code segmentCount}: the cluster's segments, which watch gap notices name. */
    History history(AckMode ackMode, int segmentCount) {
        Map<Reply, Long> retried = new EnumMap<>(Reply.class);
        retriedAttempts.forEach((kind, count) -> retried.put(kind, count.sum()));
        return new History(ackMode, new ArrayList<>(ops), Set.copyOf(namedLosses), retried,
                new History.Watches(segmentCount, new ArrayList<>(watchSpans), new ArrayList<>(watchEvents)));
    }
}
