package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.Change;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class TailCutTests {

    /** Every change below weighs this much: overhead, a one-byte key and a 36-byte value. */
    private static final long WEIGHT = Change.OVERHEAD_BYTES + 1 + 36;

    @Test
    void aPartTakesWhatFitsTheBudgetAndAtLeastOneChange() {
        List<Change> tail = List.of(put(1, "a"), put(2, "b"), put(3, "c"));

        assertThat(TailCut.partLength(tail, 2 * WEIGHT)).isEqualTo(2);
        assertThat(TailCut.partLength(tail, 1)).isEqualTo(1);
        assertThat(TailCut.partLength(tail, Long.MAX_VALUE)).isEqualTo(3);
        assertThat(TailCut.partLength(List.of(), 1)).isZero();
    }

    @Test
    void aPartEndsBeforeASupersededChangeWhoseReplacementWouldNotFit() {
        List<Change> tail = List.of(put(1, "a"), superseded(2, "b"), put(3, "c"), put(4, "b"));

        assertThat(TailCut.partLength(tail, 3 * WEIGHT)).as("b's replacement, revision 4, is beyond the budget").isEqualTo(1);
        assertThat(TailCut.partLength(tail, 4 * WEIGHT)).isEqualTo(4);
    }

    @Test
    void aPartStartingWithASupersededChangeGrowsUntilItsKeyIsSetAgain() {
        List<Change> tail = List.of(superseded(1, "a"), superseded(2, "a"), put(3, "b"), removal(4, "a"), put(5, "c"));

        assertThat(TailCut.partLength(tail, 1)).isEqualTo(4);
    }

    @Test
    void aSupersededChangeWhoseReplacementFitsDoesNotShortenThePart() {
        List<Change> tail = List.of(superseded(1, "a"), put(2, "a"), put(3, "b"));

        assertThat(TailCut.partLength(tail, 2 * WEIGHT)).isEqualTo(2);
    }

    @Test
    void aSupersededChangeOfARenamedKeyWaitsForItsDestinationToBeSetAgain() {
        List<Change> tail = List.of(superseded(1, "a"), superseded(2, "b"), rename(3, "a", "b"), put(4, "a"), put(5, "b"),
                put(6, "c"));

        assertThat(TailCut.partLength(tail, 1)).as("a's write waits, past the rename, for b's put").isEqualTo(5);
        assertThat(TailCut.partLength(List.of(superseded(1, "b"), rename(2, "a", "b"), put(3, "c")), 1))
                .as("the rename replaces b's value: nothing waits after it").isEqualTo(2);
    }

    private static Change rename(long revision, String source, String destination) {
        return Change.rename(revision, 1, source.getBytes(StandardCharsets.UTF_8),
                destination.getBytes(StandardCharsets.UTF_8), 0);
    }

    private static Change put(long revision, String key) {
        return new Change(revision, 1, key.getBytes(StandardCharsets.UTF_8), new byte[36], 0);
    }

    private static Change removal(long revision, String key) {
        return new Change(revision, 1, key.getBytes(StandardCharsets.UTF_8), null, 0);
    }

    private static Change superseded(long revision, String key) {
        return Change.superseded(revision, 1, key.getBytes(StandardCharsets.UTF_8));
    }
}
