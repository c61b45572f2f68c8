package io.zaris.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOutboundBuffer;
import io.zaris.model.Change;
import io.zaris.protocol.Frames;
import io.zaris.protocol.OpCode;
import io.zaris.protocol.SegmentInvalidations;
import io.zaris.protocol.SegmentChange;
import io.zaris.protocol.SegmentTrackAnswer;
import io.zaris.store.ChangeSink;
import io.zaris.store.NodeStore;
import io.zaris.store.TrackStart;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which data-port connections track which segments for their near caches, and the push of every change of a
 * tracked segment to them (see {@link SegmentInvalidations}).
 *
 * <p><b>Why segments, not keys.</b> A connection that asked for tracking subscribes to a segment with
 * {@code TRACK_SEGMENT} ({@link #track}) before it reads there; the node keeps no per-key state. Memory is therefore bounded by
 * {@code segments × tracking connections} slots whatever the clients read, at the price of pushing every
 * change of a tracked segment, also of keys the client never cached (it ignores those).
 *
 * <p><b>No lost invalidation.</b> {@link #track} subscribes the connection and reads the segment's position and
 * op-log tail under the segment's write lock, and a write reads the subscribers ({@link #ship}) under the same lock
 * once its change is visible: every change is either in the track answer (or before the position) or pushed. The
 * client sends its reads of the segment after the track, on the same connection, so each read is answered after
 * the subscription; the push of a change that followed the read is queued on the channel behind the read's answer.
 *
 * <p><b>No silent skip.</b> A tracking connection that has more than {@link #MAX_PENDING_BYTES} unsent
 * (its client stopped reading) is closed rather than skipped: its client then stops serving what it cached
 * from this node, and reconnects. Skipping would leave the client serving a value it was never told changed.
 *
 * <p>Concurrency: each segment's subscribers are an immutable array published through
 * {@code subscribers}; {@link #subscribe} and {@link #unsubscribeAll} run on connections' event loops and
 * replace arrays under {@code this} (rare: once per connection and segment); {@link #ship} runs on the writer's
 * thread under the segment's write lock and only reads, so the write path takes no lock of its own.
 */
final class SegmentSubscriptions {

    private static final Logger log = LoggerFactory.getLogger(SegmentSubscriptions.class);
    /** Unsent bytes past which a tracking connection is closed instead of handed another invalidation. */
    static final long MAX_PENDING_BYTES = 8L * 1024 * 1024;
    private static final Channel[] NONE = new Channel[0];

    private final String nodeId;
    /** Set once by {@link #bind} before the node serves. */
    private volatile NodeStore store;
    /** Per segment, the channels tracking it; replaced under {@code this}, read lock-free. */
    private final AtomicReferenceArray<Channel[]> subscribers;
    private final AtomicLong pushedFrames = new AtomicLong();
    private final AtomicLong closedForBacklog = new AtomicLong();

    SegmentSubscriptions(String nodeId, int segmentCount) {
        this.nodeId = nodeId;
        this.subscribers = new AtomicReferenceArray<>(segmentCount);
        for (int s = 0; s < segmentCount; s++) {
            subscribers.set(s, NONE);
        }
    }

    /**
     * The store's sink: pushes the changes to the segment's trackers, then hands them to {@code next}
     * (replication), whose outcome it returns.
     */
    ChangeSink before(ChangeSink next) {
        return next.after(this::ship);
    }

    /** Once, before the node serves: the store whose segments trackers subscribe to. */
    void bind(NodeStore nodeStore) {
        this.store = nodeStore;
    }

    /**
     * Event loop of {@code channel}: subscribes it to {@code segment} (when {@code fresh}) under the segment's write
     * lock, and reads where its stream starts in the same hold (see {@link NodeStore#track}): every change before
     * is in the answer, every change after is pushed, and its push is queued behind the answer (the writer hands
     * it to this event loop, which is busy writing the answer now).
     */
    SegmentTrackAnswer track(int segment, Channel channel, boolean fresh, long sinceRevision, long sinceEpoch) {
        TrackStart start = store.track(segment, sinceRevision, sinceEpoch, () -> {
            if (fresh) {
                subscribe(segment, channel);
            }
        });
        List<SegmentChange> changes = start.changes().stream()
                .map(change -> new SegmentChange(change.revision(), change.removal(), change.key())).toList();
        return new SegmentTrackAnswer(start.resumed(), start.revision(), start.epoch(), changes);
    }

    /** Event loop of {@code channel}: from now on changes of {@code segment} are pushed to it. */
    void subscribe(int segment, Channel channel) {
        synchronized (this) {
            Channel[] now = subscribers.get(segment);
            Channel[] grown = Arrays.copyOf(now, now.length + 1);
            grown[now.length] = channel;
            subscribers.set(segment, grown);
        }
    }

    /** Event loop of {@code channel}, when it closes: drops it from every segment it tracked. */
    void unsubscribeAll(Channel channel, BitSet segments) {
        synchronized (this) {
            for (int s = segments.nextSetBit(0); s >= 0; s = segments.nextSetBit(s + 1)) {
                Channel[] now = subscribers.get(s);
                subscribers.set(s, Arrays.stream(now).filter(c -> c != channel).toArray(Channel[]::new));
            }
        }
    }

    /** Writer's thread, under the segment's write lock: one frame of the changes to every tracker of the segment. */
    void ship(int segment, List<Change> changes) {
        Channel[] trackers = subscribers.get(segment);
        if (trackers.length == 0 || changes.isEmpty()) {
            return;
        }
        ByteBuf frame = Unpooled.buffer(Frames.LENGTH_PREFIX_BYTES + 1 + SegmentInvalidations.encodedBytes(changes));
        int start = Frames.begin(frame);
        frame.writeByte(OpCode.PUSH_FRAME);
        frame.writeByte(SegmentInvalidations.PUSH_KIND);
        SegmentInvalidations.encode(frame, segment, changes);
        Frames.finish(frame, start);
        try {
            for (Channel channel : trackers) {
                if (!channel.isActive()) {
                    continue;
                }
                if (pendingBytes(channel) > MAX_PENDING_BYTES) {
                    closedForBacklog.incrementAndGet();
                    log.warn("node {}: closing near-cache connection {}: more than {} bytes unsent, so it cannot be "
                            + "told of changes", nodeId, channel.remoteAddress(), MAX_PENDING_BYTES);
                    channel.close();
                    continue;
                }
                push(channel, frame.retainedDuplicate());
                pushedFrames.incrementAndGet();
            }
        } finally {
            frame.release();
        }
    }

    /**
     * Queues {@code frame} on the channel's event loop, behind every push queued there before. A write from the event
     * loop's own thread would go out at once, ahead of a push another writer's thread queued earlier for the same
     * channel under the segment's lock: the client would see a revision skipped (and drop the segment, or tell its
     * watches of a gap), then the skipped change too late.
     */
    private static void push(Channel channel, ByteBuf frame) {
        if (!channel.eventLoop().inEventLoop()) {
            channel.writeAndFlush(frame, channel.voidPromise()); // queued on the event loop, in lock order
            return;
        }
        try {
            channel.eventLoop().execute(() -> channel.writeAndFlush(frame, channel.voidPromise()));
        } catch (RejectedExecutionException shuttingDown) {
            frame.release(); // the channel goes with its event loop: nothing to tell it any more
        }
    }

    private static long pendingBytes(Channel channel) {
        ChannelOutboundBuffer buffer = channel.unsafe().outboundBuffer();
        return buffer == null ? 0 : buffer.totalPendingWriteBytes();
    }

    /** Invalidation frames queued to trackers so far. */
    long pushedFrames() {
        return pushedFrames.get();
    }

    /** Tracking connections closed because they were too far behind to be told of a change. */
    long closedForBacklog() {
        return closedForBacklog.get();
    }

    /** Slots held now over all segments: bounded by segments × tracking connections. */
    int subscriptions() {
        int total = 0;
        for (int s = 0; s < subscribers.length(); s++) {
            total += subscribers.get(s).length;
        }
        return total;
    }
}
