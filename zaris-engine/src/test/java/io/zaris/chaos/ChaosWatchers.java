package io.zaris.chaos;

import io.zaris.client.KeyChange;
import io.zaris.client.KeyWatch;
import io.zaris.client.KeyWatchListener;
import io.zaris.client.WatchGap;
import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.model.AckMode;
import io.zaris.model.NodeAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The key watches of a chaos run: {@link #WATCHERS} clients of their own (default options, no near cache), each
 * watching the prefix of the single-writer keys, every change and gap notice they are handed recorded in the history
 * ({@link WatchEvent}). Started before the workload and live before its first write; once the cluster healed, each
 * watch is given time to catch up (a stream that was down resumes from its position), then closed, and the checker
 * holds it to every acknowledged change it owed ({@link WatchCheck}).
 *
 * <p>Concurrency: listeners run on each client's delivery thread and only append to the recorder; the rest is used
 * by the run's thread.
 */
final class ChaosWatchers implements AutoCloseable {

    static final int WATCHERS = 2;
    /** The prefix of every single-writer key ({@link Workload#writerKey}) and of no other workload key. */
    static final String PREFIX = "w";
    /** How long the watches may take to go live at the start. */
    static final Duration LIVE_TIMEOUT = Duration.ofSeconds(60);
    /** How long the watches may take, after healing, to be handed what they owe; after it the checker judges. */
    static final Duration CATCH_UP_TIMEOUT = Duration.ofSeconds(60);

    private final HistoryRecorder recorder;
    private final List<ZarisClient> clients = new ArrayList<>();
    private final List<KeyWatch> watches = new ArrayList<>();
    private final List<Integer> ids = new ArrayList<>();
    private final List<Long> liveNanos = new ArrayList<>();

    private ChaosWatchers(HistoryRecorder recorder) {
        this.recorder = recorder;
    }

    /**
     * Connects the watchers (client ids from {@code firstId}), starts their watches and waits until each is live.
     *
     * @throws IllegalStateException when a watch is not live within {@link #LIVE_TIMEOUT}
     */
    static ChaosWatchers start(int firstId, List<NodeAddress> seeds, String password, HistoryRecorder recorder)
            throws InterruptedException {
        ChaosWatchers watchers = new ChaosWatchers(recorder);
        try {
            for (int i = 0; i < WATCHERS; i++) {
                watchers.add(firstId + i, seeds, password);
            }
            long deadline = System.nanoTime() + LIVE_TIMEOUT.toNanos();
            for (KeyWatch watch : watchers.watches) {
                while (!watch.isLive()) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("a key watch of '" + PREFIX + "' was not live within " + LIVE_TIMEOUT);
                    }
                    Thread.sleep(100); // polling the watch's own progress
                }
                watchers.liveNanos.add(recorder.now());
            }
        } catch (RuntimeException | InterruptedException e) {
            watchers.close();
            throw e;
        }
        return watchers;
    }

    private void add(int id, List<NodeAddress> seeds, String password) {
        ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(seeds).password(password)
                .clientName("chaos-watcher-" + id).environment(Map.of()).build());
        clients.add(client);
        ids.add(id);
        watches.add(client.watchPrefix(PREFIX, new KeyWatchListener() {
            @Override
            public void onChange(KeyChange change) {
                recorder.watched(new WatchEvent.Change(id, change.key(), change.version(), change.deleted(), recorder.now()));
            }

            @Override
            public void onFellBehind(WatchGap gap) {
                recorder.watched(WatchEvent.Gap.of(id, gap, recorder.now()));
            }
        }));
    }

    /**
     * Once the workload stopped and the cluster healed: waits until every watch was handed every acknowledged change
     * it owes, or told of a gap covering it (as {@link WatchCheck} counts), or {@link #CATCH_UP_TIMEOUT} passed. Then
     * closes the watches and records their spans.
     */
    void catchUpAndClose(AckMode ackMode, int segmentCount) throws InterruptedException {
        long deadline = System.nanoTime() + CATCH_UP_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline && stillOwed(ackMode, segmentCount) > 0) {
            Thread.sleep(1_000); // polling the watches' own progress
        }
        close();
    }

    /** Acknowledged changes some watch was neither handed nor told of, as if every watch closed now. */
    private long stillOwed(AckMode ackMode, int segmentCount) {
        History history = recorder.history(ackMode, segmentCount);
        long now = recorder.now();
        List<WatchEvent.Span> spans = new ArrayList<>();
        for (int i = 0; i < liveNanos.size(); i++) {
            spans.add(new WatchEvent.Span(ids.get(i), PREFIX, liveNanos.get(i), now));
        }
        Findings findings = new Findings(0);
        WatchCheck.check(new History.Watches(segmentCount, spans, history.watches().events()),
                KeyOps.byKey(history.ops()), new AsyncLosses(ackMode, history.namedLosses()), findings);
        return findings.found().stream().filter(f -> f.kind() == Finding.Kind.WATCH_SKIPPED_CHANGE).count();
    }

    /** Closes the watches, recording the span of each that went live, then their clients. Idempotent. */
    @Override
    public void close() {
        long now = recorder.now();
        for (int i = 0; i < watches.size(); i++) {
            watches.get(i).close();
            if (i < liveNanos.size()) {
                recorder.watchSpan(new WatchEvent.Span(ids.get(i), PREFIX, liveNanos.get(i), now));
            }
        }
        watches.clear();
        clients.forEach(ZarisClient::close);
        clients.clear();
    }
}
