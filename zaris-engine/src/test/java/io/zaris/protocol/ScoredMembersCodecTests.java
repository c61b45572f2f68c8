package io.zaris.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.zaris.model.ScoredMembers;
import io.zaris.model.SortedSetScores;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A range's {@link ScoredMembers} as a hash answer: the bytes {@link ResponseCodec#writeHashAnswer} writes, with each
 * score's text written straight into the answer, are the bytes of the same items as formatted arrays.
 */
@Tag("unit")
class ScoredMembersCodecTests {

    @Test
    void writtenAsTheSameItemsWithEachScoreFormattedAsRedisPrintsIt() throws MalformedRequestException {
        double[] scores = {0.0, -0.0, 1, -1, 9, 10, -10, 123456, -987654321, 0x1p53 - 1, -(0x1p53 - 1), 0x1p53, 1e20,
                1.5, -2.25, 0.1, 1e-5, 3.14159265358979, Double.MAX_VALUE, Double.MIN_VALUE, Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY, Long.MAX_VALUE, (double) Long.MIN_VALUE};
        ScoredMembers scored = new ScoredMembers(2);
        for (int i = 0; i < scores.length; i++) {
            scored.add(("m" + i).getBytes(StandardCharsets.US_ASCII), scores[i]);
        }
        assertSameAnswer(scored);

        ByteBuf written = Unpooled.buffer();
        ResponseCodec.writeHashAnswer(written, 0, scored);
        List<byte[]> items = ResponseCodec.readHashAnswer(written).items();
        for (int i = 0; i < scores.length; i++) {
            assertThat(new String(items.get(2 * i + 1), StandardCharsets.US_ASCII)).isEqualTo(SortedSetScores.format(scores[i]));
        }
    }

    @Test
    void seededScoresAreWrittenAsTheirFormattedText() {
        Random random = new Random(38);
        ScoredMembers scored = new ScoredMembers(0);
        for (int i = 0; i < 2000; i++) {
            double score = switch (i % 4) {
                case 0 -> random.nextInt();
                case 1 -> (double) random.nextLong() / (1 << random.nextInt(40));
                case 2 -> random.nextGaussian() * 1e6;
                default -> Math.rint(random.nextGaussian() * 1e15);
            };
            scored.add(new byte[] {(byte) i}, score);
        }
        assertSameAnswer(scored);
    }

    @Test
    void readsAsMemberThenScoreText() {
        ScoredMembers scored = new ScoredMembers(1);
        scored.add(new byte[] {'a'}, 2.5);
        scored.add(new byte[] {'b'}, -3);
        assertThat(scored).hasSize(4);
        assertThat(scored.pairs()).isEqualTo(2);
        assertThat(scored.get(0)).containsExactly('a');
        assertThat(scored.get(1)).isEqualTo("2.5".getBytes(StandardCharsets.US_ASCII));
        assertThat(scored.get(3)).isEqualTo("-3".getBytes(StandardCharsets.US_ASCII));
        assertThat(scored.score(1)).isEqualTo(-3.0);
        assertThatThrownBy(() -> scored.get(4)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> scored.member(2)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    /** The answer of {@code scored} is byte for byte that of a plain list of the same items. */
    private static void assertSameAnswer(ScoredMembers scored) {
        ByteBuf direct = Unpooled.buffer(16);
        ResponseCodec.writeHashAnswer(direct, 7, scored);
        ByteBuf plain = Unpooled.buffer();
        ResponseCodec.writeHashAnswer(plain, 7, new ArrayList<>(scored));
        assertThat(ByteBufUtil.hexDump(direct)).isEqualTo(ByteBufUtil.hexDump(plain));
    }
}
