package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.zaris.model.Change;
import io.zaris.protocol.Frames;
import io.zaris.protocol.MalformedRequestException;
import io.zaris.protocol.OpCode;
import io.zaris.protocol.SegmentInvalidations;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Who hears a segment's changes, on in-memory channels. */
@Tag("unit")
class SegmentSubscriptionsTests {

    private final SegmentSubscriptions subscriptions = new SegmentSubscriptions("n1", 16);

    private static List<Change> changeOf(String key, long revision) {
        return List.of(new Change(revision, 1, key.getBytes(StandardCharsets.UTF_8), null, 0));
    }

    @Test
    void aTrackerOfTheSegmentIsPushedItsChangesAndOthersAreNot() throws MalformedRequestException {
        EmbeddedChannel tracker = new EmbeddedChannel();
        EmbeddedChannel elsewhere = new EmbeddedChannel();
        subscriptions.subscribe(3, tracker);
        subscriptions.subscribe(4, elsewhere);

        subscriptions.ship(3, changeOf("k", 17));
        tracker.runPendingTasks(); // shipped on the channel's own event loop: queued there

        ByteBuf frame = tracker.readOutbound();
        assertThat(frame).isNotNull();
        assertThat(frame.readInt()).isEqualTo(frame.readableBytes());
        assertThat(frame.readUnsignedByte()).isEqualTo((short) OpCode.PUSH_FRAME);
        assertThat(frame.readUnsignedByte()).isEqualTo((short) SegmentInvalidations.PUSH_KIND);
        SegmentInvalidations pushed = SegmentInvalidations.decode(frame);
        assertThat(pushed.segment()).isEqualTo(3);
        assertThat(pushed.changes()).hasSize(1);
        assertThat(pushed.changes().get(0).revision()).isEqualTo(17);
        assertThat(new String(pushed.changes().get(0).key(), StandardCharsets.UTF_8)).isEqualTo("k");
        frame.release();
        assertThat((Object) elsewhere.readOutbound()).isNull();
        assertThat(subscriptions.pushedFrames()).isEqualTo(1);
    }

    @Test
    void aPushShippedOnTheTrackersOwnEventLoopGoesOutBehindWhatWasQueuedThereBefore() throws MalformedRequestException {
        EmbeddedChannel tracker = new EmbeddedChannel();
        subscriptions.subscribe(3, tracker);
        ByteBuf earlier = Unpooled.buffer().writeByte(42);
        // an earlier push another writer's thread handed to the event loop, not yet written
        tracker.eventLoop().execute(() -> tracker.writeAndFlush(earlier));

        subscriptions.ship(3, changeOf("k", 18)); // the test thread is the embedded channel's event loop
        tracker.runPendingTasks();

        ByteBuf first = tracker.readOutbound();
        assertThat(first).isSameAs(earlier);
        first.release();
        ByteBuf second = tracker.readOutbound();
        second.readInt();
        second.readUnsignedByte();
        second.readUnsignedByte();
        assertThat(SegmentInvalidations.decode(second).changes().get(0).revision()).isEqualTo(18);
        second.release();
    }

    @Test
    void aClosedConnectionIsDroppedFromEverySegmentItTracked() {
        EmbeddedChannel tracker = new EmbeddedChannel();
        BitSet tracked = new BitSet();
        for (int s : new int[] {1, 5, 9}) {
            subscriptions.subscribe(s, tracker);
            tracked.set(s);
        }
        assertThat(subscriptions.subscriptions()).isEqualTo(3);

        subscriptions.unsubscribeAll(tracker, tracked);

        assertThat(subscriptions.subscriptions()).isZero();
        subscriptions.ship(5, changeOf("k", 1));
        assertThat((Object) tracker.readOutbound()).isNull();
    }

    @Test
    void aTrackerTooFarBehindIsClosedRatherThanSkipped() {
        EmbeddedChannel behind = new EmbeddedChannel();
        subscriptions.subscribe(2, behind);
        // written, never flushed: counts as unsent
        behind.write(Unpooled.buffer().writeZero((int) SegmentSubscriptions.MAX_PENDING_BYTES + 1));

        subscriptions.ship(2, changeOf("k", 1));

        assertThat(behind.isOpen()).isFalse();
        assertThat(subscriptions.closedForBacklog()).isEqualTo(1);
        assertThat(subscriptions.pushedFrames()).isZero();
    }

    @Test
    void theSinkPushesBeforeItHandsTheChangesOn() {
        EmbeddedChannel tracker = new EmbeddedChannel();
        subscriptions.subscribe(0, tracker);
        long[] pushedWhenReplicated = {-1};

        subscriptions.before((segment, changes) -> {
            pushedWhenReplicated[0] = subscriptions.pushedFrames();
            return java.util.concurrent.CompletableFuture.completedFuture(null);
        }).ship(0, changeOf("k", 1)).join();

        assertThat(pushedWhenReplicated[0]).isEqualTo(1);
        tracker.runPendingTasks();
        ByteBuf frame = tracker.readOutbound();
        assertThat(frame.readableBytes()).isGreaterThan(Frames.LENGTH_PREFIX_BYTES);
        frame.release();
    }
}
