package io.zaris.chaos;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The nemesis' count of faults it deferred because they could have taken down every live copy of a partition
 * ({@link LiveCopies}): how many of each kind, the longest time one waited, and whether one was still waiting when
 * the run ended (so never injected). A deferred fault is tried again until it starts or another takes its turn;
 * one deferral is counted however many tries it takes.
 *
 * <p>Not thread-safe: the nemesis calls it under its own lock, and passes in the time (its clock, in nanoseconds).
 */
final class Deferrals {

    /** What the report shows: deferrals by kind, the longest wait in seconds, and those never injected (0 or 1). */
    record Summary(Map<String, Long> byKind, double longestSeconds, int neverInjected) {

        Summary {
            byKind = Collections.unmodifiableSortedMap(new TreeMap<>(byKind));
        }

        static final Summary NONE = new Summary(Map.of(), 0, 0);

        long total() {
            return byKind.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private final Map<String, Long> byKind = new TreeMap<>();
    /** The kind waiting now, {@code null} when none; {@link #since} is when it was first deferred. */
    private Nemesis.Kind waiting;
    private long since;
    private long longestNanos;
    private int neverInjected;

    /** The nemesis deferred a fault of {@code kind} at {@code now}; a retry of the one waiting is not counted again. */
    void deferred(Nemesis.Kind kind, long now) {
        if (kind == waiting) {
            return;
        }
        resolved(now);
        waiting = kind;
        since = now;
        byKind.merge(kind.name(), 1L, Long::sum);
    }

    /** The fault waiting, if any, took its turn at {@code now} (injected, or passed over for another reason). */
    void resolved(long now) {
        if (waiting != null) {
            longestNanos = Math.max(longestNanos, now - since);
            waiting = null;
        }
    }

    /** The run stopped injecting at {@code now}: a fault still waiting was never injected. */
    void runEnded(long now) {
        if (waiting != null) {
            neverInjected++;
            resolved(now);
        }
    }

    Summary summary() {
        return new Summary(byKind, longestNanos / 1e9, neverInjected);
    }
}
