package io.zaris.bench.peers;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * One system's failover run, on a target already started: wait for full redundancy, write ({@link PacedWriters})
 * for the warm period, SIGKILL one node, keep writing for the recovery period while a {@link RedundancyWatch} looks
 * for full redundancy, stop, wait for the puts in flight, read every key back, and sum it up
 * ({@link FailoverResult#of}). Everything runs on the calling thread except the writers' and the watch's own.
 */
final class FailoverRun {

    /** How long a freshly started cluster may take to be fully redundant before the load starts. */
    private static final Duration READY_LIMIT = Duration.ofSeconds(120);
    /**
     * How long the puts still in flight at the stop may take to complete; longer than the Zaris (60 s) and Hazelcast
     * (120 s) defaults would allow, but by then every system has long settled or not: a put still pending is reported
     * as unresolved.
     */
    private static final Duration DRAIN_LIMIT = Duration.ofSeconds(20);
    /** Reading back: keys whose read failed are tried again, this many passes in all, a second apart. */
    private static final int READ_PASSES = 3;
    /** How often progress is printed while the writes run. */
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);

    private final FailoverTarget target;
    private final FailoverSettings settings;
    private final LongSupplier clock = System::nanoTime;

    private FailoverRun(FailoverTarget target, FailoverSettings settings) {
        this.target = target;
        this.settings = settings;
    }

    static FailoverResult measure(FailoverTarget target, FailoverSettings settings) throws InterruptedException {
        return new FailoverRun(target, settings).measure();
    }

    private FailoverResult measure() throws InterruptedException {
        log("waiting for full redundancy before the load");
        long asked = clock.getAsLong();
        RedundancyWatch.Outcome ready = RedundancyWatch.await(target, Victim.NONE, asked, asked + READY_LIMIT.toNanos(), clock);
        if (ready.restoredAfter().isEmpty()) {
            throw new IllegalStateException(target.system() + " was not fully redundant within " + READY_LIMIT.toSeconds()
                    + " s of its start: " + ready.lastShortfall());
        }
        awaitServing(asked + READY_LIMIT.toNanos());
        if (settings.preload() > 0) {
            log("loading %,d keys of %d B", settings.preload(), FailoverSettings.PRELOAD_VALUE_BYTES);
            BulkLoader.load(target.client(), settings.preload(), i -> "preload-" + i,
                    new byte[FailoverSettings.PRELOAD_VALUE_BYTES]);
        }
        try (PacedWriters writers = new PacedWriters(target.client(), settings.keys(), settings.interval(), clock)) {
            long started = writers.start();
            log("writing %d keys", settings.keys());
            writeUntil(writers, started + settings.steadyPeriod().toNanos());
            long acknowledgedBeforeSteady = writers.acknowledged();
            writeUntil(writers, started + settings.warm().toNanos());
            if (writers.acknowledged() == acknowledgedBeforeSteady) {
                throw new IllegalStateException("the cluster acknowledged no put in the " + settings.steadyPeriod().toSeconds()
                        + " s before the kill: it was not serving, so no failover can be measured on it");
            }
            Victim victim = target.chooseVictim(settings.victim());
            long kill = clock.getAsLong();
            target.kill(victim);
            log("killed %s with SIGKILL (the process was gone %.0f ms after the signal)", victim, (clock.getAsLong() - kill) / 1e6);
            long deadline = kill + settings.recovery().toNanos();
            RedundancyWatch watch = RedundancyWatch.watch(target, victim, kill, deadline, clock);
            writeUntil(writers, deadline);
            long stopped = writers.stop();
            long stillInFlight = writers.awaitQuiet(DRAIN_LIMIT);
            RedundancyWatch.Outcome redundancy = watch.result();
            log("stopped; %d puts still in flight %d s later; full redundancy %s", stillInFlight, DRAIN_LIMIT.toSeconds(),
                    redundancy.restoredAfter().map(d -> String.format(Locale.ROOT, "after %.1f s", d.toMillis() / 1e3))
                            .orElse("not back: " + redundancy.lastShortfall()));
            List<KeyHistory> histories = writers.snapshots();
            long[] readBack = readBack();
            FailoverTimes times = new FailoverTimes(started + settings.steadyPeriod().toNanos(), kill, stopped);
            return FailoverResult.of(target.system(), target.configuration(), victim.toString(), histories, readBack, times,
                    redundancy, settings.recovery());
        }
    }

    /**
     * Reads every key (all absent yet) until one pass over them all succeeds: a cluster map can show every partition
     * healthy before the nodes serve (a Zaris node serves only once the leader confirmed its owner lease).
     */
    private void awaitServing(long deadlineNanos) throws InterruptedException {
        String lastFailure = "";
        while (clock.getAsLong() < deadlineNanos) {
            int failed = 0;
            for (int k = 0; k < settings.keys(); k++) {
                try {
                    target.client().value(PacedWriters.key(k));
                } catch (RuntimeException notYet) {
                    failed++;
                    lastFailure = ExceptionKinds.of(notYet);
                }
            }
            if (failed == 0) {
                return;
            }
            log("%d of %d keys not readable yet (%s)", failed, settings.keys(), lastFailure);
            Thread.sleep(RedundancyWatch.PROBE_INTERVAL.toMillis());
        }
        throw new IllegalStateException(target.system() + " did not serve every key within " + READY_LIMIT.toSeconds()
                + " s of its start: " + lastFailure);
    }

    /** Lets the writers run until the deadline, printing progress. */
    private void writeUntil(PacedWriters writers, long deadlineNanos) throws InterruptedException {
        long acknowledged = writers.acknowledged();
        long failed = writers.failed();
        while (true) {
            long left = deadlineNanos - clock.getAsLong();
            if (left <= 0) {
                return;
            }
            long slice = Math.min(left, PROGRESS_EVERY.toNanos());
            Thread.sleep(Math.max(1, slice / 1_000_000));
            if (slice < PROGRESS_EVERY.toNanos() / 5) {
                continue; // the last sliver before the deadline: not worth a line
            }
            log("%,d puts acknowledged, %,d failed since the last line", writers.acknowledged() - acknowledged,
                    writers.failed() - failed);
            acknowledged = writers.acknowledged();
            failed = writers.failed();
        }
    }

    /** The sequence number each key reads back as ({@link LostWrites#count}'s {@code readBack}). */
    private long[] readBack() throws InterruptedException {
        long[] sequences = new long[settings.keys()];
        Arrays.fill(sequences, LostWrites.UNREADABLE);
        String lastFailure = "";
        for (int pass = 1; pass <= READ_PASSES; pass++) {
            int unread = 0;
            for (int k = 0; k < sequences.length; k++) {
                if (sequences[k] != LostWrites.UNREADABLE) {
                    continue;
                }
                try {
                    long sequence = SequenceValue.decode(target.client().value(PacedWriters.key(k)));
                    sequences[k] = sequence == SequenceValue.MALFORMED ? LostWrites.UNREADABLE : sequence;
                } catch (RuntimeException e) {
                    lastFailure = ExceptionKinds.of(e);
                }
                unread += sequences[k] == LostWrites.UNREADABLE ? 1 : 0;
            }
            if (unread == 0) {
                break;
            }
            log("read-back pass %d: %d keys unreadable (last failure %s)", pass, unread, lastFailure);
            if (pass < READ_PASSES) {
                Thread.sleep(1000);
            }
        }
        return sequences;
    }

    private void log(String format, Object... args) {
        System.out.printf(Locale.ROOT, "[%s] %s%n", target.system(), String.format(Locale.ROOT, format, args));
    }
}
