package io.zaris.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The run over time, from the history and the nemesis' faults: answered and failed operations per second,
 * and how long writes stalled after each fault. Pure.
 *
 * @param faultSeconds        when each fault began, in seconds since the start
 * @param longestStallByFault per kind of fault, the longest a single-writer write overlapping one took from
 *                            the fault's start (or its own start, if later) to its completion, in seconds
 * @param maxStallSeconds     the longest of those over all faults
 * @param p99StallSeconds     the 99th percentile of each fault's longest stall
 * @param longestStall        where the longest stall lay (the write, its client and times, and the fault), so it
 *                            can be found in the node logs; {@code "none"} when no write overlapped a fault
 */
record Timeline(long[] answeredPerSecond, long[] failedPerSecond, List<Double> faultSeconds,
                Map<String, Double> longestStallByFault, double maxStallSeconds, double p99StallSeconds,
                String longestStall) {

    static Timeline of(List<Op> ops, List<Nemesis.Fault> faults, long startNanos, long endNanos) {
        int seconds = (int) Math.max(1, (endNanos - startNanos) / 1_000_000_000L + 1);
        long[] answered = new long[seconds];
        long[] failed = new long[seconds];
        for (Op op : ops) {
            int second = (int) ((op.completedNanos() - startNanos) / 1_000_000_000L);
            if (second >= 0 && second < seconds) {
                (op.reply().isAnswer() ? answered : failed)[second]++;
            }
        }
        List<Double> faultSeconds = new ArrayList<>();
        List<Double> stalls = new ArrayList<>();
        Map<String, Double> longestByKind = new TreeMap<>();
        long overallLongest = -1;
        String where = "none";
        for (Nemesis.Fault fault : faults) {
            faultSeconds.add((fault.startNanos() - startNanos) / 1e9);
            long longest = 0;
            for (Op op : ops) {
                if (op instanceof Op.Write && op.completedNanos() >= fault.startNanos()
                        && op.invokedNanos() <= fault.endNanos()) {
                    long stall = op.completedNanos() - Math.max(op.invokedNanos(), fault.startNanos());
                    longest = Math.max(longest, stall);
                    if (stall > overallLongest) {
                        overallLongest = stall;
                        where = String.format(java.util.Locale.ROOT,
                                "%s by client %d, invoked at %.1f s, %s at %.1f s; %s of %s from %.1f s to %.1f s",
                                op.key(), op.client(), (op.invokedNanos() - startNanos) / 1e9, op.reply(),
                                (op.completedNanos() - startNanos) / 1e9, fault.kind(), fault.node(),
                                (fault.startNanos() - startNanos) / 1e9, (fault.endNanos() - startNanos) / 1e9);
                    }
                }
            }
            stalls.add(longest / 1e9);
            longestByKind.merge(fault.kind().name(), longest / 1e9, Math::max);
        }
        stalls.sort(Double::compare);
        double max = stalls.isEmpty() ? 0 : stalls.get(stalls.size() - 1);
        double p99 = stalls.isEmpty() ? 0
                : stalls.get((int) Math.min(stalls.size() - 1, Math.ceil(stalls.size() * 0.99) - 1));
        return new Timeline(answered, failed, faultSeconds, longestByKind, max, p99, where);
    }
}
