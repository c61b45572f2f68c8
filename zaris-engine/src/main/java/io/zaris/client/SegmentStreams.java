package io.zaris.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per segment, the invalidation stream the near cache relies on: which connection and epoch it runs on, whether it
 * is live, and the position it reached (the last revision heard, and the epoch that change was written under).
 * Entries of a segment are served only while its stream is live on the connection and epoch the segment is routed
 * to now. When that changes (a failover, a planned move, a lost connection), the entries stay but are not served:
 * the client asks the new owner to resume the stream from the position ({@code TRACK_SEGMENT}), drops the keys
 * changed since, and serves again; only when the new owner's history no longer reaches back does it drop the
 * segment's entries.
 *
 * <p>Every transition gives the stream a new {@code generation}; a fill or a track answer of an older generation
 * is refused, so an answer that raced a transition never revives what the transition stopped.
 *
 * <p>Concurrency: one immutable {@link Stream} per segment, replaced with {@link ConcurrentHashMap#compute}
 * (atomic per segment); readers see the latest one without a lock. Callers: application threads (reads) and
 * connections' event loops (answers, pushes, closes).
 */
final class SegmentStreams {

    /** No generation: a read sent while the segment had no stream on the routed connection; it does not fill. */
    static final long NO_GENERATION = -1;

    enum State { DOWN, RESUMING, LIVE }

    /**
     * @param revision      the last revision this stream heard (through the track answer or a push), {@code -1} for
     *                      none: then there is nothing to resume from
     * @param revisionEpoch the epoch of the change at {@code revision}, {@code -1} when not known
     */
    record Stream(Object connection, long epoch, long generation, State state, long revision, long revisionEpoch) {

        boolean liveOn(Object routed, long routedEpoch) {
            return state == State.LIVE && connection == routed && epoch == routedEpoch;
        }
    }

    /** What a reader must send to (re)start the stream: {@code TRACK_SEGMENT} from this position. */
    record Track(long generation, long sinceRevision, long sinceEpoch) {
    }

    private static final Stream NONE = new Stream(null, -1, 0, State.DOWN, -1, -1);

    private final Map<Integer, Stream> streams = new ConcurrentHashMap<>();

    Stream of(int segment) {
        return streams.getOrDefault(segment, NONE);
    }

    /** Whether entries of {@code segment} may be served to a read routed to {@code routed} under {@code routedEpoch}. */
    boolean serves(int segment, Object routed, long routedEpoch) {
        return of(segment).liveOn(routed, routedEpoch);
    }

    /**
     * A read of {@code segment} is about to go to {@code routed}: unless the stream already runs (or is being
     * started) there, starts it. Returns the {@code TRACK_SEGMENT} to send first, or {@code null} when none is needed.
     */
    Track begin(int segment, Object routed, long routedEpoch) {
        Track[] started = new Track[1];
        streams.compute(segment, (s, now) -> {
            Stream current = now == null ? NONE : now;
            if (current.connection == routed && current.epoch == routedEpoch && current.state != State.DOWN) {
                return current;
            }
            Stream next = new Stream(routed, routedEpoch, current.generation + 1, State.RESUMING, current.revision,
                    current.revisionEpoch);
            started[0] = new Track(next.generation, current.revision, current.revisionEpoch);
            return next;
        });
        return started[0];
    }

    /** The generation a read sent now to {@code routed} fills under, {@link #NO_GENERATION} when it must not fill. */
    long generationFor(int segment, Object routed, long routedEpoch) {
        Stream stream = of(segment);
        return stream.connection == routed && stream.epoch == routedEpoch && stream.state != State.DOWN
                ? stream.generation : NO_GENERATION;
    }

    /** Whether a read answered on {@code source}, sent under {@code generation}, may fill now. */
    boolean fills(int segment, Object source, long generation) {
        Stream stream = of(segment);
        return generation != NO_GENERATION && stream.generation == generation && stream.state == State.LIVE
                && stream.connection == source;
    }

    /** Whether the track of {@code generation} is still the one in progress. */
    boolean tracking(int segment, long generation) {
        Stream stream = of(segment);
        return stream.generation == generation && stream.state == State.RESUMING;
    }

    /**
     * The node answered the track of {@code generation}: the stream is live from {@code revision}. The caller has
     * already dropped what the answer says changed. Returns {@code false} (and changes nothing) when a later
     * transition superseded that track.
     */
    boolean tracked(int segment, long generation, long revision, long revisionEpoch) {
        boolean[] applied = new boolean[1];
        streams.computeIfPresent(segment, (s, now) -> {
            if (now.generation != generation || now.state != State.RESUMING) {
                return now;
            }
            applied[0] = true;
            return new Stream(now.connection, now.epoch, generation, State.LIVE, revision, revisionEpoch);
        });
        return applied[0];
    }

    /** The track of {@code generation} failed: the stream is down until the next read starts it again. */
    void trackFailed(int segment, long generation) {
        streams.computeIfPresent(segment, (s, now) -> now.generation != generation ? now
                : new Stream(now.connection, now.epoch, generation + 1, State.DOWN, now.revision, now.revisionEpoch));
    }

    /**
     * A push of changes {@code firstRevision..lastRevision} of {@code segment} came on {@code source} (its keys are
     * already dropped). Advances the live stream's position. Returns {@code true} when the push does not follow on
     * from the position (a change was never heard): the caller must drop the segment's entries.
     */
    boolean pushed(int segment, Object source, long firstRevision, long lastRevision, long epoch) {
        boolean[] gap = new boolean[1];
        streams.computeIfPresent(segment, (s, now) -> {
            if (now.state != State.LIVE || now.connection != source || lastRevision <= now.revision) {
                return now;
            }
            gap[0] = firstRevision > now.revision + 1;
            return new Stream(now.connection, now.epoch, now.generation, State.LIVE, lastRevision, epoch);
        });
        return gap[0];
    }

    /** {@code source} closed: every stream on it is down (its position kept for the resume). Returns their segments. */
    List<Integer> down(Object source) {
        List<Integer> segments = new ArrayList<>();
        for (Integer segment : streams.keySet()) {
            streams.computeIfPresent(segment, (s, now) -> {
                if (now.connection != source || now.state == State.DOWN) {
                    return now;
                }
                segments.add(s);
                return new Stream(now.connection, now.epoch, now.generation + 1, State.DOWN, now.revision,
                        now.revisionEpoch);
            });
        }
        return segments;
    }
}
