package io.zaris.bench.peers;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one system's failover run measured (see {@link FailoverRun}).
 *
 * @param victim               which node was killed, as the report names it
 * @param writesAcknowledged   writes the client acknowledged over the whole run
 * @param exceptions           exceptions the client reported for puts that completed after the kill, per kind, the
 *                             most frequent first
 * @param exceptionsBeforeKill exceptions it reported for puts that completed before the kill (a settled cluster has
 *                             none)
 * @param writesUnresolved     writes still in flight when the keys were read back (their outcome never known)
 * @param redundancy           from the kill until the cluster held every entry on as many live nodes as before
 *                             (empty when that did not happen within the recovery period, with what was short)
 * @param recovery             how long the writes went on after the kill
 */
record FailoverResult(String system, String configuration, String victim, Unavailability unavailability,
                      long writesAcknowledged, Map<String, Long> exceptions, long exceptionsBeforeKill, LostWrites lost,
                      int writesUnresolved, RedundancyWatch.Outcome redundancy, Duration recovery) {

    FailoverResult {
        exceptions = Collections.unmodifiableMap(new LinkedHashMap<>(exceptions)); // keeps the order
    }

    long exceptionCount() {
        return exceptions.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * Summarizes a run from what each key went through and the sequence number each key read back as
     * ({@link LostWrites#count}'s {@code readBack}).
     */
    static FailoverResult of(String system, String configuration, String victim, List<KeyHistory> histories,
                             long[] readBack, FailoverTimes times, RedundancyWatch.Outcome redundancy, Duration recovery) {
        long[] lastAcknowledged = histories.stream().mapToLong(KeyHistory::lastAcknowledged).toArray();
        long acknowledged = histories.stream().flatMap(h -> h.attempts().stream()).filter(WriteAttempt::isAcknowledged).count();
        List<WriteAttempt> failed = histories.stream().flatMap(h -> h.attempts().stream())
                .filter(a -> !a.isAcknowledged()).toList();
        List<String> afterKill = failed.stream().filter(a -> a.doneNanos() > times.killNanos()).map(WriteAttempt::failure).toList();
        int unresolved = (int) histories.stream().filter(KeyHistory::hasWriteInFlight).count();
        return new FailoverResult(system, configuration, victim, Unavailability.of(histories, times), acknowledged,
                ExceptionKinds.tally(afterKill), failed.size() - afterKill.size(), LostWrites.count(lastAcknowledged, readBack),
                unresolved, redundancy, recovery);
    }
}
