package io.zaris.client;

import io.zaris.model.KvStatus;
import io.zaris.placement.SegmentMapper;
import io.zaris.protocol.Request;
import io.zaris.protocol.SegmentChange;
import io.zaris.protocol.SegmentInvalidations;
import io.zaris.protocol.SegmentTrackAnswer;
import io.zaris.protocol.ResponseCodec;
import io.zaris.time.TimeSource;
import io.zaris.transport.NodeConnection;
import io.zaris.transport.ZarisStatusException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's key watches, built on the same per-segment streams as the near cache ({@link SegmentStreams},
 * {@code TRACK_SEGMENT} and the pushes of {@link SegmentInvalidations}), with positions of their own.
 *
 * <p><b>In order, resumed, never skipped silently.</b> A watched segment's stream runs on the connection the
 * segment is routed to. Its changes are handed on only from the live stream and only past the stream's position,
 * so each is delivered once and in revision order (so in order per key). When the route changes (failover, planned
 * move, lost connection) the stream resumes on the new owner from the position, and the track answer replays the
 * changes since; when the new owner's op log no longer reaches back, or a push skips a revision, the watchers are
 * told with a {@link WatchGap}. Position checks, position moves and queueing of a segment's changes happen under
 * the segment's lock ({@code locks}), so a push racing a resume can neither be delivered twice nor lost.
 *
 * <p><b>Delivery.</b> One daemon thread per client hands changes to listeners; each watch queues at most
 * {@link #MAX_PENDING} (see {@link KeyWatch}). A track that fails is tried again every {@link #RETRY} while the
 * segment is watched.
 */
final class KeyWatches implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KeyWatches.class);
    /** Changes a watch may have waiting for its listener before it drops changes and says so. */
    static final int MAX_PENDING = 10_000;
    static final Duration RETRY = Duration.ofMillis(500);
    private static final int LOCK_STRIPES = 1024;

    private final Supplier<RoutingTable> tables;
    private final Supplier<SegmentMapper> mappers;
    private final TimeSource time;
    private final Duration attemptTimeout;
    private final SegmentStreams streams = new SegmentStreams();
    private final List<KeyWatch> watches = new CopyOnWriteArrayList<>();
    /** Per segment, how many open watches cover it (prefix watches cover all); absent when none. */
    private final ConcurrentHashMap<Integer, Integer> watchedSegments = new ConcurrentHashMap<>();
    private final Object[] locks = new Object[LOCK_STRIPES];
    private final ScheduledExecutorService delivery;

    KeyWatches(Supplier<RoutingTable> tables, Supplier<SegmentMapper> mappers, TimeSource time, Duration attemptTimeout) {
        this.tables = tables;
        this.mappers = mappers;
        this.time = time;
        this.attemptTimeout = attemptTimeout;
        for (int i = 0; i < LOCK_STRIPES; i++) {
            locks[i] = new Object();
        }
        this.delivery = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "zaris-key-watch");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Watches {@code key} exactly, or every key starting with it when {@code prefix}; starts the streams needed. */
    KeyWatch watch(byte[] key, boolean prefix, KeyWatchListener listener) {
        SegmentMapper mapper = mappers.get();
        int[] segments;
        if (prefix) {
            segments = new int[mapper.segmentCount()];
            for (int s = 0; s < segments.length; s++) {
                segments[s] = s;
            }
        } else {
            segments = new int[] {mapper.segmentOf(key)};
        }
        KeyWatch watch = new KeyWatch(key.clone(), prefix, listener, this, segments);
        watches.add(watch);
        for (int segment : segments) {
            watchedSegments.merge(segment, 1, Integer::sum);
        }
        for (int segment : segments) {
            ensureTracked(segment);
        }
        return watch;
    }

    void remove(KeyWatch watch) {
        watches.remove(watch);
        for (int segment : watch.segments()) {
            watchedSegments.computeIfPresent(segment, (s, count) -> count == 1 ? null : count - 1);
        }
    }

    boolean live(int[] segments) {
        RoutingTable table = tables.get();
        if (table == null) {
            return false;
        }
        for (int segment : segments) {
            if (!streams.serves(segment, table.connectionFor(segment), table.epochOf(segment))) {
                return false;
            }
        }
        return true;
    }

    /** A new routing table was published: every watched segment whose stream is not on its route resumes there. */
    void routeChanged() {
        for (Integer segment : watchedSegments.keySet()) {
            ensureTracked(segment);
        }
    }

    /** Event loop of {@code source}, which closed: its streams are down until they resume (on the next table, or retry). */
    void lost(NodeConnection source) {
        for (int segment : streams.down(source)) {
            retryLater(segment);
        }
    }

    /** Event loop of {@code source}: hands on the changes past the live stream's position, in order. */
    void pushed(SegmentInvalidations changes, NodeConnection source) {
        int segment = changes.segment();
        List<SegmentChange> list = changes.changes();
        if (list.isEmpty() || !watchedSegments.containsKey(segment)) {
            return;
        }
        synchronized (lock(segment)) {
            SegmentStreams.Stream stream = streams.of(segment);
            if (stream.state() != SegmentStreams.State.LIVE || stream.connection() != source) {
                return; // not the live stream: a resume from the position replays what matters
            }
            List<SegmentChange> fresh = new ArrayList<>(list.size());
            for (SegmentChange change : list) {
                if (change.revision() > stream.revision()) {
                    fresh.add(change);
                }
            }
            if (fresh.isEmpty()) {
                return;
            }
            long first = fresh.get(0).revision();
            if (first > stream.revision() + 1) {
                queueGap(new WatchGap(WatchGap.Reason.CHANGE_NOT_HEARD, segment, stream.revision(), first - 1, -1));
            }
            streams.pushed(segment, source, first, fresh.get(fresh.size() - 1).revision(), changes.epoch());
            queue(segment, fresh);
        }
    }

    /**
     * Unless {@code segment}'s stream runs (or is starting) on its route, sends {@code TRACK_SEGMENT} there from the
     * stream's position.
     */
    private void ensureTracked(int segment) {
        RoutingTable table = tables.get();
        if (table == null || !watchedSegments.containsKey(segment)) {
            return;
        }
        NodeConnection routed = table.connectionFor(segment);
        if (routed == null || !routed.isOpen()) {
            retryLater(segment);
            return;
        }
        long epoch = table.epochOf(segment);
        SegmentStreams.Track track;
        synchronized (lock(segment)) {
            track = streams.begin(segment, routed, epoch);
        }
        if (track == null) {
            return;
        }
        routed.send(id -> new Request.TrackSegment(id, segment, track.sinceRevision(), track.sinceEpoch()),
                (status, body) -> {
                    if (status != KvStatus.OK) {
                        throw new ZarisStatusException(status, ResponseCodec.readMessage(body));
                    }
                    tracked(segment, track, SegmentTrackAnswer.decode(body));
                    return null;
                }, epoch, 0, time.nanoTime() + attemptTimeout.toNanos())
                .whenComplete((ignored, error) -> {
                    if (error != null) {
                        streams.trackFailed(segment, track.generation());
                        retryLater(segment);
                    }
                });
    }

    /** Event loop of the answering connection: replays the changes since the position, or reports the gap; then live. */
    private void tracked(int segment, SegmentStreams.Track track, SegmentTrackAnswer answer) {
        synchronized (lock(segment)) {
            if (!streams.tracking(segment, track.generation())) {
                return;
            }
            if (track.sinceRevision() >= 0) {
                if (answer.resumed()) {
                    queue(segment, answer.changes());
                } else {
                    queueGap(WatchGap.historyLost(segment, answer.revision()));
                }
            }
            streams.tracked(segment, track.generation(), answer.revision(), answer.epoch());
        }
    }

    private void retryLater(int segment) {
        if (watchedSegments.containsKey(segment) && !delivery.isShutdown()) {
            delivery.schedule(() -> ensureTracked(segment), RETRY.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** Under the segment's lock: queues each change for every watch whose key or prefix it matches. */
    private void queue(int segment, List<SegmentChange> changes) {
        for (KeyWatch watch : watches) {
            if (!watch.covers(segment)) {
                continue;
            }
            for (SegmentChange change : changes) {
                if (watch.matches(change.key())) {
                    queue(watch, new KeyChange(new String(change.key(), StandardCharsets.UTF_8), change.revision(),
                            change.removed()));
                }
            }
        }
    }

    private void queue(KeyWatch watch, KeyChange change) {
        switch (watch.admit()) {
            case QUEUE -> execute(() -> {
                watch.delivered();
                if (!watch.isClosed()) {
                    watch.listener().onChange(change);
                }
            });
            case DROP_AND_NOTIFY -> execute(() -> {
                long dropped = watch.takeDropped();
                if (!watch.isClosed()) {
                    watch.listener().onFellBehind(new WatchGap(WatchGap.Reason.LISTENER_TOO_SLOW, -1, -1, -1, dropped));
                }
            });
            case DROP -> {
                // counted; the notice already queued reports it
            }
        }
    }

    /** Under the segment's lock: tells every watch of the segment that changes are missing. */
    private void queueGap(WatchGap gap) {
        for (KeyWatch watch : watches) {
            if (watch.covers(gap.segment())) {
                execute(() -> {
                    if (!watch.isClosed()) {
                        watch.listener().onFellBehind(gap);
                    }
                });
            }
        }
    }

    private void execute(Runnable delivery) {
        try {
            this.delivery.execute(() -> {
                try {
                    delivery.run();
                } catch (RuntimeException e) {
                    log.warn("a key watch listener failed", e);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            // the client is closing: nothing more is delivered
        }
    }

    private Object lock(int segment) {
        return locks[Math.floorMod(segment, LOCK_STRIPES)];
    }

    @Override
    public void close() {
        delivery.shutdownNow();
    }
}
