package io.zaris.chaos;

import io.zaris.client.ZarisClient;
import io.zaris.protocol.VersionedValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Checks the ledger against the healed cluster:
 * <ul>
 *   <li>single-writer keys read back their last acknowledged value or one attempted after it;</li>
 *   <li>no two acknowledged CAS updates of a key from the same version; the final CAS value is at least the
 *       acknowledged updates and at most those plus the indeterminate ones;</li>
 *   <li>counters end between their acknowledged and their attempted increments;</li>
 *   <li>reads during the run never went back before an acknowledged write (collected by the workload);</li>
 *   <li>no routing status reached the application;</li>
 *   <li>under ASYNC, where losses are allowed when named: which keys with an anomaly had no loss named.</li>
 * </ul>
 */
final class Checker {

    private Checker() {
    }

    static ChaosReport check(ZarisClient client, Ledger ledger, List<Nemesis.Fault> faults, ChaosOptions options,
                             long startNanos, long endNanos) {
        List<String> lost = new ArrayList<>();
        List<String> unexplained = new ArrayList<>();
        long acknowledged = 0;
        for (Map.Entry<String, List<Ledger.Write>> key : ledger.writes.entrySet()) {
            acknowledged += key.getValue().stream().filter(w -> w.outcome() == Ledger.Outcome.OK).count();
            Optional<VersionedValue> read = client.sync().get(key.getKey());
            String value = read.map(v -> new String(v.value(), StandardCharsets.UTF_8)).orElse(null);
            if (!ledger.isLegalRead(key.getKey(), value)) {
                String finding = key.getKey() + " reads '" + value + "', last writes " + tail(key.getValue());
                lost.add(finding);
                if (!ledger.namedLostKeys.contains(key.getKey())) {
                    unexplained.add(finding);
                }
            }
        }
        // Keys with a CAS, counter or read anomaly: under ASYNC each must have had a loss named to the client.
        Set<String> anomalousKeys = new TreeSet<>(ledger.readAnomalyKeys);
        List<String> casAnomalies = new ArrayList<>();
        for (int k = 0; k < Workload.CAS_KEYS; k++) {
            String key = Workload.casKey(k);
            ConcurrentLinkedQueue<Long> versions = ledger.casFromVersions.getOrDefault(key, new ConcurrentLinkedQueue<>());
            Set<Long> seen = new HashSet<>();
            for (long version : versions) {
                if (!seen.add(version)) {
                    casAnomalies.add(key + ": two acknowledged CAS updates from version " + version);
                    anomalousKeys.add(key);
                }
            }
            long acked = ledger.casAcknowledged.getOrDefault(key, new AtomicLong()).get();
            long maybe = ledger.casIndeterminate.getOrDefault(key, new AtomicLong()).get();
            long value = client.sync().get(key).map(v -> Long.parseLong(new String(v.value(), StandardCharsets.UTF_8)))
                    .orElse(0L);
            if (value < acked || value > acked + maybe) {
                casAnomalies.add(key + " = " + value + " but " + acked + " acknowledged and " + maybe + " indeterminate");
                anomalousKeys.add(key);
            }
        }
        List<String> counterAnomalies = new ArrayList<>();
        for (int k = 0; k < Workload.COUNTERS; k++) {
            String key = Workload.counterKey(k);
            long acked = ledger.counterAcknowledged.getOrDefault(key, new AtomicLong()).get();
            long attempted = ledger.counterAttempted.getOrDefault(key, new AtomicLong()).get();
            long value = client.sync().get(key).map(v -> Long.parseLong(new String(v.value(), StandardCharsets.UTF_8)))
                    .orElse(0L);
            if (value < acked || value > attempted) {
                counterAnomalies.add(key + " = " + value + " but " + acked + " acknowledged of " + attempted + " attempted");
                anomalousKeys.add(key);
            }
        }
        List<String> anomaliesOnUnnamedKeys = anomalousKeys.stream().filter(key -> !ledger.namedLostKeys.contains(key)).toList();
        Map<String, Long> faultsByKind = new TreeMap<>();
        List<Double> stalls = new ArrayList<>();
        Map<String, Double> longestStallByFault = new TreeMap<>();
        List<Double> faultSeconds = new ArrayList<>();
        for (Nemesis.Fault fault : faults) {
            faultsByKind.merge(fault.kind().name(), 1L, Long::sum);
            faultSeconds.add((fault.startNanos() - startNanos) / 1e9);
            long longest = 0;
            for (Ledger.Event event : ledger.events) {
                if (event.kind().equals("write") && event.completedNanos() >= fault.startNanos()
                        && event.invokedNanos() <= fault.endNanos()) {
                    longest = Math.max(longest, event.completedNanos() - Math.max(event.invokedNanos(), fault.startNanos()));
                }
            }
            stalls.add(longest / 1e9);
            longestStallByFault.merge(fault.kind().name(), longest / 1e9, Math::max);
        }
        stalls.sort(Double::compare);
        double max = stalls.isEmpty() ? 0 : stalls.get(stalls.size() - 1);
        double p99 = stalls.isEmpty() ? 0 : stalls.get((int) Math.min(stalls.size() - 1, Math.ceil(stalls.size() * 0.99) - 1));
        int seconds = (int) Math.max(1, TimeUnit.NANOSECONDS.toSeconds(endNanos - startNanos) + 1);
        long[] ok = new long[seconds];
        long[] failed = new long[seconds];
        for (Ledger.Event event : ledger.events) {
            int second = (int) ((event.completedNanos() - startNanos) / 1_000_000_000L);
            if (second >= 0 && second < seconds) {
                (event.ok() ? ok : failed)[second]++;
            }
        }
        Map<String, Long> outcomes = new TreeMap<>();
        ledger.outcomes.forEach((outcome, count) -> outcomes.put(outcome.name(), count.get()));
        return new ChaosReport(options, TimeUnit.NANOSECONDS.toSeconds(endNanos - startNanos), faultsByKind, outcomes,
                acknowledged, lost, unexplained, ledger.namedLostWrites.get(), casAnomalies, counterAnomalies, new ArrayList<>(ledger.readAnomalies),
                anomaliesOnUnnamedKeys,
                new ArrayList<>(ledger.routingStatusesSurfaced), max, p99, longestStallByFault, ok, failed, faultSeconds);
    }

    private static String tail(List<Ledger.Write> history) {
        return history.subList(Math.max(0, history.size() - 3), history.size()).toString();
    }
}
