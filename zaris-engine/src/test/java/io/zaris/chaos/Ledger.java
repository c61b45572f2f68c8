package io.zaris.chaos;

import io.zaris.client.LostWrite;
import io.zaris.client.ZarisStatusException;
import io.zaris.protocol.KvStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every operation the workload attempted, with its invoke and complete time and outcome. Single-writer
 * keys keep their own history (their writer appends, in order); shared CAS keys and counters keep
 * concurrent tallies. Thread-safe: histories are per key and appended by the one thread owning the key;
 * everything shared is a concurrent collection or an atomic.
 */
final class Ledger {

    /** How an operation ended. */
    enum Outcome {
        OK,
        /** Definitely not applied (a refusal before applying, a conflict). */
        FAILED,
        /** May or may not have been applied (timeout, connection lost after sending, not acknowledged). */
        INDETERMINATE;

        /**
         * Only a request error is known not to have been applied. Anything else may hide an earlier attempt
         * of the same operation that was applied but not acknowledged (the client retries internally and
         * reports the last attempt's failure), so it counts as indeterminate.
         */
        static Outcome of(Throwable failure) {
            if (failure instanceof ZarisStatusException status && status.status().isRequestError()) {
                return FAILED;
            }
            return INDETERMINATE;
        }
    }

    /** One write of a single-writer key: its value ({@code null} = delete) and outcome. */
    record Write(long sequence, String value, Outcome outcome, long invokedNanos, long completedNanos) {
    }

    /** One operation for the timeline and availability figures. */
    record Event(long invokedNanos, long completedNanos, boolean ok, String kind) {
    }

    final Map<String, List<Write>> writes = new ConcurrentHashMap<>();
    final ConcurrentLinkedQueue<String> readAnomalies = new ConcurrentLinkedQueue<>();
    /** The keys of {@link #readAnomalies}, to check them against the keys named lost. */
    final Set<String> readAnomalyKeys = ConcurrentHashMap.newKeySet();
    final Map<String, ConcurrentLinkedQueue<Long>> casFromVersions = new ConcurrentHashMap<>();
    final Map<String, AtomicLong> casAcknowledged = new ConcurrentHashMap<>();
    final Map<String, AtomicLong> casIndeterminate = new ConcurrentHashMap<>();
    final Map<String, AtomicLong> counterAcknowledged = new ConcurrentHashMap<>();
    final Map<String, AtomicLong> counterAttempted = new ConcurrentHashMap<>();
    final ConcurrentLinkedQueue<Event> events = new ConcurrentLinkedQueue<>();
    final ConcurrentLinkedQueue<String> routingStatusesSurfaced = new ConcurrentLinkedQueue<>();
    final Map<Outcome, AtomicLong> outcomes = new ConcurrentHashMap<>();
    /** Keys of acknowledged ASYNC writes the client was told a takeover lost, and how many such writes. */
    final Set<String> namedLostKeys = ConcurrentHashMap.newKeySet();
    final AtomicLong namedLostWrites = new AtomicLong();

    /** The client's lost-write listener: network thread, so only concurrent collections. */
    void namedLost(LostWrite lost) {
        namedLostKeys.add(lost.key());
        namedLostWrites.incrementAndGet();
    }

    void write(String key, Write write) {
        writes.computeIfAbsent(key, k -> new ArrayList<>()).add(write);
        count(write.outcome());
        events.add(new Event(write.invokedNanos(), write.completedNanos(), write.outcome() == Outcome.OK, "write"));
    }

    void failure(Throwable failure) {
        if (failure instanceof ZarisStatusException status && status.status().meansWrongNode()) {
            routingStatusesSurfaced.add(status.getMessage());
        }
    }

    void count(Outcome outcome) {
        outcomes.computeIfAbsent(outcome, o -> new AtomicLong()).incrementAndGet();
    }

    void event(long invoked, long completed, boolean ok, String kind) {
        events.add(new Event(invoked, completed, ok, kind));
    }

    /**
     * The values a read of a single-writer key may legally return at this point of its writer's history:
     * the last acknowledged write's value and anything attempted after it (or absent before any ack).
     * Called by the key's writer thread.
     */
    boolean isLegalRead(String key, String value) {
        List<Write> history = writes.getOrDefault(key, List.of());
        int lastOk = -1;
        for (int i = history.size() - 1; i >= 0; i--) {
            if (history.get(i).outcome() == Outcome.OK) {
                lastOk = i;
                break;
            }
        }
        if (lastOk < 0 && value == null) {
            return true;
        }
        for (int i = Math.max(0, lastOk); i < history.size(); i++) {
            Write write = history.get(i);
            if (i > lastOk && write.outcome() == Outcome.FAILED) {
                continue;
            }
            if (java.util.Objects.equals(write.value(), value)) {
                return true;
            }
        }
        return false;
    }

    static boolean isRoutingStatus(Throwable failure) {
        return failure instanceof ZarisStatusException status && status.status().meansWrongNode()
                && status.status() != KvStatus.UNAVAILABLE;
    }
}
