package io.zaris.chaos;

import io.zaris.client.ZarisClient;
import io.zaris.protocol.VersionedValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
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
 * Judges a recorded chaos history, in the spirit of Jepsen's register workloads. A pure function: the same
 * history always gives the same verdict, with no cluster, clock or randomness involved.
 *
 * <ul>
 *   <li>single-writer keys: every answered read against real-time order ({@link RegisterCheck}), including
 *       the read of every written key after healing, which finds lost writes;</li>
 *   <li>compare-and-set keys: forks, the values the CAS loops read, and every acknowledged update on the
 *       final value's history ({@link CasCheck});</li>
 *   <li>counters: acknowledged increments exactly, indeterminate ones as an upper bound
 *       ({@link CounterCheck});</li>
 *   <li>a written key no read after healing answered is unchecked, which is a finding too;</li>
 *   <li>every reply the client should have resolved itself (MOVED, OWNERSHIP_CHANGING,
 *       REPLICA_WRITE_REJECTED, MIGRATING, UNAVAILABLE) that reached the application is a finding.</li>
 * </ul>
 * Under ASYNC, anomalies every implied loss of which was named to the client are excused ({@link AsyncLosses}).
 */
final class Checker {

    private Checker() {
    }

    /** @throws IllegalArgumentException when the history breaks the workload's invariants (see the checks) */
    static Verdict check(History history) {
        long origin = history.ops().stream().mapToLong(Op::invokedNanos).min().orElse(0);
        Findings findings = new Findings(origin);
        AsyncLosses losses = new AsyncLosses(history.ackMode(), history.namedLosses());
        long keysWritten = 0;
        long keysReadAfterHealing = 0;
        for (KeyOps key : KeyOps.byKey(history.ops()).values()) {
            Op.Read afterHealing = key.answeredAfterHealing();
            if (key.written()) {
                keysWritten++;
                if (afterHealing == null) {
                    findings.add(new Finding(Finding.Kind.UNREADABLE_AFTER_HEALING, key.key,
                            key.readsAfterHealing.size() + " read(s) after healing, none answered"));
                } else {
                    keysReadAfterHealing++;
                }
            }
            if (!key.updates.isEmpty()) {
                CasCheck check = new CasCheck(key.key, key.updates);
                check.checkForks(losses, findings);
                key.reads.forEach(read -> check.checkRead(read, losses, findings));
                if (afterHealing != null) {
                    check.checkAfterHealing(afterHealing, losses, findings);
                }
            } else if (!key.increments.isEmpty()) {
                new CounterCheck(key.key, key.increments).check(key.reads, afterHealing, losses, findings);
            } else {
                RegisterCheck check = new RegisterCheck(key.key, key.writes);
                key.reads.forEach(read -> check.check(read, losses, findings));
                key.readsAfterHealing.forEach(read -> check.check(read, losses, findings));
            }
        }
        Map<Reply, Long> replies = new EnumMap<>(Reply.class);
        for (Op op : history.ops()) {
            replies.merge(op.reply(), 1L, Long::sum);
            if (op.reply().mustNotSurface()) {
                findings.add(new Finding(Finding.Kind.SURFACED_STATUS, op.key(), op.reply() + " reached the "
                        + "application from a " + name(op) + " " + findings.during(op) + " by client " + op.client()));
            }
        }
        return new Verdict(findings.found(), findings.excused(), replies, history.retriedAttempts(),
                tally(history, keysWritten, keysReadAfterHealing));
    }

    private static Verdict.Tally tally(History history, long keysWritten, long keysReadAfterHealing) {
        long[] writes = new long[Outcome.values().length];
        long casUpdates = 0;
        long increments = 0;
        long reads = 0;
        for (Op op : history.ops()) {
            if (op instanceof Op.Write write) {
                writes[write.outcome().ordinal()]++;
            } else if (op instanceof Op.Cas update && update.outcome() == Outcome.OK) {
                casUpdates++;
            } else if (op instanceof Op.Increment increment && increment.outcome() == Outcome.OK) {
                increments++;
            } else if (op instanceof Op.Read read && read.answered() && !read.afterHealing()) {
                reads++;
            }
        }
        return new Verdict.Tally(writes[Outcome.OK.ordinal()], writes[Outcome.INDETERMINATE.ordinal()],
                writes[Outcome.FAILED.ordinal()], casUpdates, increments, reads, keysWritten, keysReadAfterHealing,
                history.namedLosses().size());
    }

    private static String name(Op op) {
        if (op instanceof Op.Write write) {
            return write.value() == null ? "DELETE" : "PUT";
        }
        if (op instanceof Op.Cas) {
            return "CAS";
        }
        return op instanceof Op.Increment ? "INCREMENT" : "GET";
    }

    /** The previous check of a ledger against the cluster, until the harness records histories. */
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
