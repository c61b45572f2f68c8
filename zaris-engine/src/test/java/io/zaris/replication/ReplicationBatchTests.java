package io.zaris.replication;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.zaris.model.Change;
import io.zaris.model.KvStatus;
import io.zaris.protocol.Frames;
import io.zaris.protocol.OpCode;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.protocol.Request;
import io.zaris.protocol.RequestCodec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ReplicationBatchTests {

    private static final UnpooledByteBufAllocator ALLOCATOR = new UnpooledByteBufAllocator(false);

    @Test
    void theClosedFrameDecodesAsTheGroupsInTheOrderTheyJoined() throws Exception {
        ReplicationBatch batch = new ReplicationBatch(ALLOCATOR, 0);
        List<Change> first = List.of(put(5, "a", 10), Change.superseded(6, 2, bytes("b")));
        List<Change> second = List.of(new Change(1, 3, bytes("c"), null, 0));
        batch.add(1, 2, 7, first, verdict -> { });
        batch.add(4, 3, 33, second, verdict -> { });

        ByteBuf frame = batch.close();
        RequestCodec.fillHeader(frame, OpCode.REPLICATE_BATCH, 77);
        assertThat(frame.readInt()).isEqualTo(frame.readableBytes());
        Request decoded = RequestCodec.decode(frame, ProtocolLimits.defaults()).request();
        assertThat(decoded).usingRecursiveComparison().isEqualTo(new Request.ReplicateBatch(77, List.of(
                new Request.Replicate(77, 1, 2, 7, first), new Request.Replicate(77, 4, 3, 33, second))));
        frame.release();
    }

    @Test
    void groupsJoinUntilTheBodyBoundAndAnEmptyBatchTakesAnyGroup() {
        ReplicationBatch batch = new ReplicationBatch(ALLOCATOR, 0);
        List<Change> huge = List.of(put(1, "huge", ReplicationBatch.MAX_BODY_BYTES * 2));
        assertThat(batch.accepts(huge)).as("an empty batch takes a group larger than the bound").isTrue();

        List<Change> small = List.of(put(1, "k", 100));
        int joined = 0;
        while (batch.accepts(small)) {
            batch.add(0, 1, 0, small, verdict -> { });
            joined++;
            assertThat(batch.isFull()).as("a batch that took a group within the bound is not over it").isFalse();
        }
        assertThat(joined).isGreaterThan(50); // about 16 KiB of 100-byte values and their bookkeeping
        assertThat(batch.accepts(huge)).isFalse();
        batch.discard();
    }

    @Test
    void atMostEightValuesOfAKibibyteOrMoreJoinOneBatch() {
        ReplicationBatch batch = new ReplicationBatch(ALLOCATOR, 0);
        List<Change> large = List.of(put(1, "k", ReplicationBatch.LARGE_VALUE_BYTES));
        for (int i = 0; i < ReplicationBatch.MAX_LARGE_VALUES; i++) {
            assertThat(batch.isFull()).isFalse();
            assertThat(batch.accepts(large)).isTrue();
            batch.add(0, 1, 0, large, verdict -> { });
        }
        assertThat(batch.isFull()).isTrue();
        assertThat(batch.accepts(large)).isFalse();
        assertThat(batch.accepts(List.of(put(2, "small", ReplicationBatch.LARGE_VALUE_BYTES - 1))))
                .as("smaller values still fit").isTrue();
        batch.discard();
    }

    @Test
    void eachGroupGetsItsOwnVerdictPastAFailingListenerAndGroupsTheAnswerMissesAreNotApplied() {
        ReplicationBatch batch = new ReplicationBatch(ALLOCATOR, 0);
        CompletableFuture<ReplicaLink.Verdict> first = new CompletableFuture<>();
        CompletableFuture<ReplicaLink.Verdict> second = new CompletableFuture<>();
        CompletableFuture<ReplicaLink.Verdict> third = new CompletableFuture<>();
        batch.add(0, 1, 0, List.of(put(1, "a", 1)), first::complete);
        batch.add(0, 1, 1, List.of(put(1, "b", 1)), verdict -> {
            second.complete(verdict);
            throw new IllegalStateException("a listener that fails");
        });
        batch.add(0, 1, 2, List.of(put(1, "c", 1)), third::complete);
        batch.close().release();

        batch.settle(List.of(new ReplicaLink.Verdict(KvStatus.OK, 1), new ReplicaLink.Verdict(KvStatus.FENCED, 9)));
        assertThat(first.join()).isEqualTo(new ReplicaLink.Verdict(KvStatus.OK, 1));
        assertThat(second.join()).isEqualTo(new ReplicaLink.Verdict(KvStatus.FENCED, 9));
        assertThat(third.join().applied()).as("heard although the listener before it failed").isFalse();
    }

    @Test
    void aDiscardedBatchFreesItsFrameAndFailsEveryGroup() {
        ReplicationBatch batch = new ReplicationBatch(ALLOCATOR, 0);
        CompletableFuture<ReplicaLink.Verdict> verdict = new CompletableFuture<>();
        batch.add(0, 1, 0, List.of(put(1, "a", 10)), verdict::complete);
        ByteBuf frame = batch.close();
        frame.retain(); // a second reference, so the test can see what discard leaves
        batch.discard();
        assertThat(frame.refCnt()).isEqualTo(1);
        frame.release();
        assertThat(verdict.join()).isEqualTo(ReplicaLink.Verdict.failed()); // closed from this side: the replica is not gone
    }

    @Test
    void theFrameStartsWithItsReservedHeader() {
        ReplicationBatch batch = new ReplicationBatch(ALLOCATOR, 0);
        ByteBuf frame = batch.close();
        assertThat(frame.readableBytes()).isEqualTo(RequestCodec.RESERVED_HEADER_BYTES + 4);
        assertThat(frame.getInt(Frames.LENGTH_PREFIX_BYTES + RequestCodec.HEADER_BYTES)).as("no groups").isZero();
        frame.release();
    }

    private static Change put(long revision, String key, int valueBytes) {
        return new Change(revision, 2, bytes(key), new byte[valueBytes], 0);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
