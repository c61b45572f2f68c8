package io.zaris.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zaris.model.AckMode;
import io.zaris.model.Change;
import io.zaris.model.HashOp;
import io.zaris.model.KvStatus;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class RequestCodecTests {

    private static final ProtocolLimits LIMITS = ProtocolLimits.defaults();

    @Test
    void everyRequestSurvivesARoundTrip() throws Exception {
        byte[] key = bytes("user:1");
        assertRoundTrip(new Request.Hello(1, RequestCodec.MAGIC, RequestCodec.PROTOCOL_VERSION, "client"));
        assertRoundTrip(new Request.Get(2, key));
        assertRoundTrip(new Request.Put(3, key, bytes("v"), Request.NO_TTL, false, Request.ANY_VERSION));
        assertRoundTrip(new Request.Put(4, key, bytes("v"), 1500, true, 17));
        assertRoundTrip(new Request.Delete(5, key, Request.ANY_VERSION));
        assertRoundTrip(new Request.Delete(6, key, 9));
        assertRoundTrip(new Request.Put(3, key, bytes("v"), Request.NO_TTL, false, Request.ANY_VERSION, AckMode.SYNC));
        assertRoundTrip(new Request.Put(4, key, bytes("v"), 1500, true, 17, AckMode.ASYNC));
        assertRoundTrip(new Request.Delete(6, key, 9, AckMode.ASYNC));
        assertRoundTrip(new Request.Increment(7, key, -3));
        assertRoundTrip(new Request.Touch(8, key, 0));
        assertRoundTrip(new Request.MultiGet(9, List.of(key, bytes("b"))));
        assertRoundTrip(new Request.MultiPut(10, List.of(key, bytes("b")), List.of(bytes("1"), bytes("2")), 100));
        assertRoundTrip(new Request.MultiPutIfAbsent(15, List.of(key, bytes("b")), List.of(bytes("1"), bytes("2")), 0));
        assertRoundTrip(new Request.MultiDelete(11, List.of(key)));
        assertRoundTrip(new Request.Scan(12, 40, 1000));
        assertRoundTrip(new Request.ClusterMap(13));
        assertRoundTrip(new Request.MapVersion(14));
        assertRoundTrip(new Request.TrackSegments(16));
        assertRoundTrip(new Request.Hash(17, bytes("h"), HashOp.HSET, List.of(bytes("f"), bytes("v"))));
        assertRoundTrip(new Request.Hash(18, bytes("h"), HashOp.HGETALL, List.of()));
        assertRoundTrip(new Request.Hash(19, bytes("s"), HashOp.SADD, List.of(bytes("m1"), bytes("m2"))));
        assertRoundTrip(new Request.Hash(20, bytes("s"), HashOp.SPOP, List.of()));
        assertRoundTrip(new Request.Hash(21, bytes("s"), HashOp.SRANDMEMBER, List.of(bytes("-3"))));
        assertRoundTrip(new Request.Hash(22, bytes("l"), HashOp.LPUSH, List.of(bytes("a"), bytes("b"))));
        assertRoundTrip(new Request.Hash(23, bytes("l"), HashOp.LMOVE, List.of(bytes("d"), bytes("LEFT"), bytes("RIGHT"))));
        assertRoundTrip(new Request.Hash(24, bytes("l"), HashOp.LRANGE, List.of(bytes("0"), bytes("-1"))));
        assertRoundTrip(new Request.Hash(25, bytes("z"), HashOp.ZADD, List.of(bytes("NC"), bytes("1.5"), bytes("m"))));
        assertRoundTrip(new Request.Hash(26, bytes("z"), HashOp.ZRANGE,
                List.of(bytes("SCORE"), bytes("1"), bytes("(1"), bytes("+inf"), bytes("0"), bytes("-1"))));
        assertRoundTrip(new Request.TrackSegment(17, 3, 41, 6));
        assertRoundTrip(new Request.TrackSegment(18, 3, -1, -1));
        assertRoundTrip(new Request.Publish(27, bytes("news"), bytes("")));
    }

    @Test
    void aHashFrameWithArgumentsTheOpDoesNotTakeIsRefused() throws Exception {
        ByteBuf frame = encode(new Request.Hash(19, bytes("h"), HashOp.HSET, List.of(bytes("f"), bytes("v"))));
        frame.setInt(frame.writerIndex() - 2 * (4 + 1) - 4, 1); // one argument: HSET takes pairs
        assertThatThrownBy(() -> RequestCodec.decode(frame, LIMITS)).isInstanceOf(MalformedRequestException.class)
                .hasMessageContaining("HSET does not take 1 arguments");
    }

    @Test
    void replicatedChangesKeepTheirKindValueRemovalOrSuperseded() throws Exception {
        List<Change> changes = List.of(new Change(7, 2, bytes("a"), bytes("v"), 1234),
                new Change(8, 2, bytes("b"), null, 0), Change.superseded(9, 2, bytes("a")), new Change(10, 2, bytes("a"), new byte[0], 0),
                Change.fieldPut(11, 2, bytes("h"), bytes("f"), bytes("x"), 99), Change.fieldRemoval(12, 2, bytes("h"), bytes("f")),
                Change.expiry(13, 2, bytes("h"), 5678), Change.memberPut(14, 2, bytes("s"), bytes("m"), 77),
                Change.fieldRemoval(15, 2, bytes("s"), bytes("m")), Change.listInsert(16, 2, bytes("l"), 0, bytes("e"), 88),
                Change.listRemove(17, 2, bytes("l"), 3, 2), Change.listSet(18, 2, bytes("l"), 1, new byte[0], 0),
                Change.scorePut(19, 2, bytes("z"), bytes("m"), io.zaris.model.SortedSetScores.encode(-2.5), 0),
                Change.rename(20, 2, bytes("z"), bytes("z2"), 4321));
        assertRoundTrip(new Request.Replicate(16, 1, 2, 3, changes));

        ByteBuf frame = encode(new Request.Replicate(17, 1, 2, 3, List.of(new Change(7, 2, bytes("a"), null, 0))));
        int kindAt = frame.writerIndex() - 8 - 1;
        frame.setByte(kindAt, 10);
        assertThatThrownBy(() -> RequestCodec.decode(frame, LIMITS)).isInstanceOf(MalformedRequestException.class)
                .hasMessageContaining("unknown change kind 10");
    }

    @Test
    void aListChangeWithoutItsPositionIsRefused() {
        for (byte[] position : List.of(bytes("3"), bytes("-1 2"), bytes("1 2 3"), bytes("x"))) {
            Change removal = new Change(7, 2, Change.Kind.LIST_REMOVE, bytes("l"), position, null, 0);
            ByteBuf frame = encode(new Request.Replicate(17, 1, 2, 3, List.of(removal)));
            assertThatThrownBy(() -> RequestCodec.decode(frame, LIMITS)).as(new String(position))
                    .isInstanceOf(MalformedRequestException.class).hasMessageContaining("bad list position");
        }
    }

    @Test
    void aReplicationBatchCarriesEachGroupWithItsOwnSegmentAndEpoch() throws Exception {
        Request.Replicate first = new Request.Replicate(30, 1, 2, 3, List.of(new Change(7, 2, bytes("a"), bytes("v"), 0),
                Change.superseded(8, 2, bytes("b"))));
        Request.Replicate second = new Request.Replicate(30, 4, 5, 17, List.of(new Change(1, 5, bytes("c"), null, 0)));
        assertRoundTrip(new Request.ReplicateBatch(30, List.of(first, second)));
        assertRoundTrip(new Request.ReplicateBatch(31, List.of()));

        ByteBuf frame = encode(new Request.ReplicateBatch(32, List.of(first)));
        assertThat((int) frame.getUnsignedByte(frame.readerIndex())).isEqualTo(0x54);
        frame.setInt(RequestCodec.HEADER_BYTES, 2); // claims a second group the frame does not hold
        assertThatThrownBy(() -> RequestCodec.decode(frame, LIMITS)).isInstanceOf(MalformedRequestException.class);
    }

    @Test
    void aFrameWhoseHeaderWasReservedDecodesLikeOneEncodedWhole() throws Exception {
        List<Change> changes = List.of(new Change(7, 2, bytes("a"), bytes("value"), 99));
        ByteBuf prepared = Unpooled.buffer();
        RequestCodec.reserveHeader(prepared);
        RequestCodec.writeReplicateGroup(prepared, 1, 2, 3, changes);
        RequestCodec.fillHeader(prepared, OpCode.REPLICATE, 41);

        ByteBuf whole = Unpooled.buffer();
        int start = Frames.begin(whole);
        RequestCodec.encode(new Request.Replicate(41, 1, 2, 3, changes), whole);
        Frames.finish(whole, start);
        assertThat(toArray(prepared)).isEqualTo(toArray(whole));

        ByteBuf notEmpty = Unpooled.buffer().writeByte(1);
        assertThatThrownBy(() -> RequestCodec.reserveHeader(notEmpty)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void multiPutIfAbsentHasItsOwnOpCodeAndDecodesAsItself() throws Exception {
        Request request = new Request.MultiPutIfAbsent(21, List.of(bytes("{t}a"), bytes("{t}b")),
                List.of(bytes("1"), bytes("22")), 500);
        ByteBuf frame = encode(request);
        assertThat((int) frame.getUnsignedByte(frame.readerIndex())).isEqualTo(0x23);
        assertThat(OpCode.MULTI_PUT_IF_ABSENT.isWrite()).isTrue();
        Request decoded = RequestCodec.decode(frame, LIMITS).request();
        assertThat(decoded).isInstanceOfSatisfying(Request.MultiPutIfAbsent.class, multiPut -> {
            assertThat(multiPut.keys()).containsExactly(bytes("{t}a"), bytes("{t}b"));
            assertThat(multiPut.values()).containsExactly(bytes("1"), bytes("22"));
            assertThat(multiPut.ttlMillis()).isEqualTo(500);
        });
    }

    @Test
    void emptyOrNegativeTtlMultiPutIfAbsentIsABadRequest() {
        ByteBuf empty = encode(new Request.MultiPutIfAbsent(5, List.of(), List.of(), 0));
        assertThatThrownBy(() -> RequestCodec.decode(empty, LIMITS))
                .isInstanceOfSatisfying(MalformedRequestException.class, e -> {
                    assertThat(e.status()).isEqualTo(KvStatus.BAD_REQUEST);
                    assertThat(e.requestId()).isEqualTo(5);
                })
                .hasMessageContaining("without keys");
        ByteBuf negativeTtl = encode(new Request.MultiPutIfAbsent(6, List.of(bytes("k")), List.of(bytes("v")), -1));
        assertThatThrownBy(() -> RequestCodec.decode(negativeTtl, LIMITS))
                .isInstanceOf(MalformedRequestException.class)
                .hasMessageContaining("negative ttl");
    }

    @Test
    void emptyKeysAndValuesAreLegal() throws Exception {
        assertRoundTrip(new Request.Put(1, new byte[0], new byte[0], Request.NO_TTL, false, Request.ANY_VERSION));
    }

    @Test
    void unknownOpCodeKeepsTheRequestIdSoItCanBeAnswered() {
        ByteBuf frame = Unpooled.buffer().writeByte(0x6E).writeLong(77).writeLong(0).writeInt(0);
        assertThatThrownBy(() -> RequestCodec.decode(frame, LIMITS))
                .isInstanceOfSatisfying(MalformedRequestException.class, e -> {
                    assertThat(e.requestId()).isEqualTo(77);
                    assertThat(e.isAnswerable()).isTrue();
                    assertThat(e.status()).isEqualTo(KvStatus.BAD_REQUEST);
                });
    }

    @Test
    void frameWithoutAFullHeaderIsNotAnswerable() {
        ByteBuf frame = Unpooled.buffer().writeByte(0x10).writeInt(1);
        assertThatThrownBy(() -> RequestCodec.decode(frame, LIMITS))
                .isInstanceOfSatisfying(MalformedRequestException.class, e -> assertThat(e.isAnswerable()).isFalse());
    }

    @Test
    void trailingBytesAreRejected() {
        ByteBuf frame = encode(new Request.Get(3, bytes("k")));
        frame.writeByte(0);
        assertThatThrownBy(() -> RequestCodec.decode(frame, LIMITS)).hasMessageContaining("trailing");
    }

    @Test
    void keyLongerThanTheLimitIsTooLargeWithoutBeingRead() {
        ProtocolLimits small = new ProtocolLimits(1024, 4, 16, 4);
        ByteBuf frame = header(OpCode.GET).writeInt(5).writeBytes(bytes("abcde"));
        assertThatThrownBy(() -> RequestCodec.decode(frame, small))
                .isInstanceOfSatisfying(MalformedRequestException.class,
                        e -> assertThat(e.status()).isEqualTo(KvStatus.TOO_LARGE));
    }

    @Test
    void lyingLengthIsTruncationNotAnAllocation() {
        ByteBuf frame = header(OpCode.GET).writeInt(60_000).writeByte(1);
        assertThatThrownBy(() -> RequestCodec.decode(frame, LIMITS)).hasMessageContaining("truncated");
    }

    @Test
    void nonPositiveTtlAndNegativeVersionsAreRejected() {
        ByteBuf zeroTtl = header(OpCode.PUT).writeByte(4)
                .writeInt(1).writeByte('k').writeInt(0).writeLong(0);
        assertThatThrownBy(() -> RequestCodec.decode(zeroTtl, LIMITS)).hasMessageContaining("ttl must be positive");
        ByteBuf negativeVersion = header(OpCode.DELETE).writeByte(2)
                .writeInt(1).writeByte('k').writeLong(-5);
        assertThatThrownBy(() -> RequestCodec.decode(negativeVersion, LIMITS)).hasMessageContaining("negative expected version");
    }

    @Test
    void randomlyMutatedFramesFailOnlyWithMalformedRequestException() {
        Random random = new Random(7);
        byte[] valid = toArray(encode(new Request.Put(5, bytes("key"), bytes("value"), 100, true, 3)));
        for (int i = 0; i < 20_000; i++) {
            byte[] mutated = valid.clone();
            int flips = 1 + random.nextInt(4);
            for (int f = 0; f < flips; f++) {
                mutated[random.nextInt(mutated.length)] = (byte) random.nextInt(256);
            }
            int length = random.nextInt(mutated.length + 1);
            ByteBuf frame = Unpooled.wrappedBuffer(mutated, 0, length);
            try {
                RequestCodec.decode(frame, LIMITS);
            } catch (MalformedRequestException expected) {
                // typed rejection is the only acceptable failure
            }
        }
    }

    @Test
    void advanceEpochRoundTripsAndRefusesAnEpochThatMovesBackwards() throws Exception {
        assertRoundTrip(new Request.AdvanceEpoch(9, 3, 41, 6, 7, 1234));
        assertRoundTrip(new Request.AdvanceEpoch(9, 3, 41, 7, 7, 1234)); // an audit of the copy under epoch 7
        ByteBuf backwards = header(OpCode.ADVANCE_EPOCH).writeInt(3).writeInt(41).writeLong(8).writeLong(7).writeLong(0);
        assertThatThrownBy(() -> RequestCodec.decode(backwards, LIMITS)).hasMessageContaining("fromEpoch <= toEpoch");
    }

    @Test
    void aWriteCannotAskForBothAcknowledgementModes() {
        ByteBuf frame = header(OpCode.DELETE).writeByte(8 | 16).writeInt(1).writeByte('k');
        assertThatThrownBy(() -> RequestCodec.decode(frame, LIMITS)).hasMessageContaining("both SYNC and ASYNC");
    }

    @Test
    void headerCarriesTheRoutedEpochAndTheDeadline() throws Exception {
        ByteBuf buf = Unpooled.buffer();
        RequestCodec.encode(new Request.Get(4, bytes("k")), 12, 1500, buf);
        RequestCodec.Envelope envelope = RequestCodec.decode(buf, LIMITS);
        assertThat(envelope.routedEpoch()).isEqualTo(12);
        assertThat(envelope.deadlineMillis()).isEqualTo(1500);
    }

    @Test
    void negativeEpochOrDeadlineIsRejected() {
        ByteBuf frame = Unpooled.buffer().writeByte(OpCode.GET.code()).writeLong(1).writeLong(-1).writeInt(0)
                .writeInt(1).writeByte('k');
        assertThatThrownBy(() -> RequestCodec.decode(frame, LIMITS)).hasMessageContaining("negative routed epoch");
    }

    private static ByteBuf header(OpCode op) {
        return Unpooled.buffer().writeByte(op.code()).writeLong(1).writeLong(0).writeInt(0);
    }

    private static void assertRoundTrip(Request request) throws Exception {
        Request decoded = RequestCodec.decode(encode(request), LIMITS).request();
        assertThat(decoded).usingRecursiveComparison().isEqualTo(request);
    }

    private static ByteBuf encode(Request request) {
        ByteBuf buf = Unpooled.buffer();
        RequestCodec.encode(request, buf);
        return buf;
    }

    private static byte[] toArray(ByteBuf buf) {
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
