package io.zaris.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The key-to-slot vectors below are a compatibility contract with Redis Cluster: never change them. */
@Tag("unit")
class SegmentMapperTests {

    @Test
    void crc16MatchesTheXmodemCheckValue() {
        byte[] check = ascii("123456789");

        assertThat(SegmentMapper.crc16(check, 0, check.length)).isEqualTo(0x31C3);
    }

    @Test
    void crc16HashesOnlyTheRequestedRange() {
        byte[] padded = ascii("xx123456789yy");

        assertThat(SegmentMapper.crc16(padded, 2, 11)).isEqualTo(0x31C3);
        assertThat(SegmentMapper.crc16(padded, 4, 4)).isZero();
    }

    @Test
    void slotsMatchRedisClusterVectors() {
        assertThat(SegmentMapper.slot("foo")).isEqualTo(12182);
        assertThat(SegmentMapper.slot("bar")).isEqualTo(5061);
        assertThat(SegmentMapper.slot("hello")).isEqualTo(866);
        assertThat(SegmentMapper.slot("{user1000}.following")).isEqualTo(3443);
        assertThat(SegmentMapper.slot("{user1000}.followers")).isEqualTo(3443);
    }

    @Test
    void hashTagIsTheTextBetweenTheFirstOpenBraceAndTheFirstCloseBraceAfterIt() {
        assertThat(SegmentMapper.slot("foo{{bar}}zap")).isEqualTo(SegmentMapper.slot("{bar"));
        assertThat(SegmentMapper.slot("foo{bar}{zap}")).isEqualTo(SegmentMapper.slot("bar"));
        assertThat(SegmentMapper.slot("{bar}")).isEqualTo(SegmentMapper.slot("bar"));
    }

    @Test
    void emptyOrUnclosedHashTagHashesTheWholeKey() {
        assertThat(SegmentMapper.slot("{}foo")).isEqualTo(wholeKeySlot("{}foo"));
        assertThat(SegmentMapper.slot("foo{}{bar}")).isEqualTo(wholeKeySlot("foo{}{bar}"));
        assertThat(SegmentMapper.slot("foo{bar")).isEqualTo(wholeKeySlot("foo{bar"));
        assertThat(SegmentMapper.slot("foo}bar{")).isEqualTo(wholeKeySlot("foo}bar{"));
        assertThat(SegmentMapper.slot("")).isZero();
    }

    @Test
    void nonAsciiKeysHashTheirUtf8Bytes() {
        assertThat(SegmentMapper.slot("ключ")).isEqualTo(10303);
        assertThat(SegmentMapper.slot("ключ".getBytes(StandardCharsets.UTF_8))).isEqualTo(10303);
        assertThat(SegmentMapper.slot("{ключ}.a")).isEqualTo(SegmentMapper.slot("{ключ}.b")).isEqualTo(10303);
    }

    @Test
    void anyCharSequenceIsAccepted() {
        assertThat(SegmentMapper.slot(new StringBuilder("{user1000}.following"))).isEqualTo(3443);
        assertThat(SegmentMapper.slot(new StringBuilder("ключ"))).isEqualTo(10303);
    }

    @Test
    void charAndBytePathsAgreeOnRandomKeys() {
        Random random = new Random(16384);
        SegmentMapper mapper = new SegmentMapper(1024);
        for (int i = 0; i < 5000; i++) {
            String key = randomKey(random);
            int expected = SegmentMapper.slot(key.getBytes(StandardCharsets.UTF_8));

            assertThat(SegmentMapper.slot(key)).as(key).isEqualTo(expected).isBetween(0, SegmentMapper.SLOT_COUNT - 1);
            assertThat(mapper.segmentOf(key)).isEqualTo(mapper.segmentOfSlot(expected));
        }
    }

    /** Short keys over an alphabet rich in braces, Latin-1, Cyrillic and CJK characters, or plain ASCII. */
    private static String randomKey(Random random) {
        String alphabet = random.nextBoolean() ? "{}ab\u00e0\u00ff\u0430\u044f\u4e00\u4e10" : null;
        int length = random.nextInt(21);
        StringBuilder key = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            key.append(alphabet != null ? alphabet.charAt(random.nextInt(alphabet.length())) : (char) random.nextInt(128));
        }
        return key.toString();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7, 128, 1000, 1024, 16383, 16384})
    void slotsMapToSegmentsInContiguousNonEmptyRuns(int segmentCount) {
        SegmentMapper mapper = new SegmentMapper(segmentCount);

        int previous = 0;
        for (int slot = 0; slot < SegmentMapper.SLOT_COUNT; slot++) {
            int segment = mapper.segmentOfSlot(slot);
            assertThat(segment).isBetween(previous, Math.min(previous + 1, segmentCount - 1));
            previous = segment;
        }
        assertThat(mapper.segmentOfSlot(0)).isZero();
        assertThat(mapper.segmentOfSlot(SegmentMapper.SLOT_COUNT - 1)).isEqualTo(segmentCount - 1);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7, 128, 1000, 1024, 16383, 16384})
    void firstAndLastSlotBoundEachSegment(int segmentCount) {
        SegmentMapper mapper = new SegmentMapper(segmentCount);

        assertThat(mapper.firstSlotOf(0)).isZero();
        assertThat(mapper.lastSlotOf(segmentCount - 1)).isEqualTo(SegmentMapper.SLOT_COUNT - 1);
        for (int segment = 0; segment < segmentCount; segment++) {
            int first = mapper.firstSlotOf(segment);
            int last = mapper.lastSlotOf(segment);
            assertThat(first).isLessThanOrEqualTo(last);
            assertThat(mapper.segmentOfSlot(first)).isEqualTo(segment);
            assertThat(mapper.segmentOfSlot(last)).isEqualTo(segment);
            if (first > 0) {
                assertThat(mapper.segmentOfSlot(first - 1)).isEqualTo(segment - 1);
            }
            if (segment + 1 < segmentCount) {
                assertThat(mapper.firstSlotOf(segment + 1)).isEqualTo(last + 1);
            }
        }
    }

    @Test
    void segmentOfKeyIsTheSegmentOfItsSlot() {
        SegmentMapper mapper = new SegmentMapper(1024);

        assertThat(mapper.segmentOf("foo")).isEqualTo(12182 * 1024 / 16384);
        assertThat(mapper.segmentOf(ascii("foo"))).isEqualTo(mapper.segmentOf("foo"));
        assertThat(mapper.segmentCount()).isEqualTo(1024);
    }

    @ParameterizedTest
    @ValueSource(ints = {Integer.MIN_VALUE, -1, 0, 16385})
    void constructorRejectsSegmentCountOutsideOneToSlotCount(int segmentCount) {
        assertThatThrownBy(() -> new SegmentMapper(segmentCount))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("segmentCount")
                .hasMessageContaining(String.valueOf(segmentCount));
    }

    @Test
    void indexesOutsideTheirRangeAreRejected() {
        SegmentMapper mapper = new SegmentMapper(8);

        assertThatThrownBy(() -> mapper.segmentOfSlot(-1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> mapper.segmentOfSlot(SegmentMapper.SLOT_COUNT))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> mapper.firstSlotOf(8)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("segment 8");
        assertThatThrownBy(() -> mapper.lastSlotOf(-1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> SegmentMapper.crc16(new byte[3], 2, 1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> SegmentMapper.crc16(new byte[3], 0, 4)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void nullKeysAreRejected() {
        assertThatThrownBy(() -> SegmentMapper.slot((byte[]) null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> SegmentMapper.slot((CharSequence) null)).isInstanceOf(NullPointerException.class);
    }

    private static int wholeKeySlot(String key) {
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        return SegmentMapper.crc16(bytes, 0, bytes.length) & 0x3FFF;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
