package io.zaris.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Redis's arithmetic and order for ZUNION, ZINTER and ZDIFF, on values. */
@Tag("unit")
class SortedSetAlgebraTests {

    @Test
    void aUnionZeroesEveryNotANumberAndOrdersByScoreThenMember() {
        List<String> result = combine(SortedSetAlgebra.Kind.UNION, SortedSetAlgebra.Aggregate.SUM,
                source(1, "i", Double.POSITIVE_INFINITY, "b", 2), source(1, "i", Double.NEGATIVE_INFINITY, "a", 2),
                source(0, "n", Double.POSITIVE_INFINITY));

        assertThat(result).as("inf + −inf is 0, 0 × inf is 0; ties go by member").containsExactly("i=0.0", "n=0.0", "a=2.0",
                "b=2.0");
    }

    @Test
    void anIntersectionLeavesALaterSourcesNotANumberToTheAggregate() {
        SortedSetAlgebra.Source small = source(2, "j", Double.POSITIVE_INFINITY);
        SortedSetAlgebra.Source large = source(0, "j", Double.NEGATIVE_INFINITY, "k", 1);

        assertThat(combine(SortedSetAlgebra.Kind.INTER, SortedSetAlgebra.Aggregate.SUM, large, small))
                .as("the smaller source first: inf + NaN sums to 0").containsExactly("j=0.0");
        assertThat(combine(SortedSetAlgebra.Kind.INTER, SortedSetAlgebra.Aggregate.MIN, large, small))
                .as("MIN ignores the NaN").containsExactly("j=Infinity");
    }

    @Test
    void aDifferenceKeepsTheFirstSourcesScores() {
        assertThat(combine(SortedSetAlgebra.Kind.DIFF, SortedSetAlgebra.Aggregate.SUM,
                source(5, "a", 1, "b", 2, "c", 3), source(1, "b", 9), source(1, "c", 9)))
                .containsExactly("a=1.0");
    }

    @Test
    void minAndMaxPickAmongTheWeightedScores() {
        SortedSetAlgebra.Source a = source(2, "m", 3);
        SortedSetAlgebra.Source b = source(-1, "m", 4);

        assertThat(combine(SortedSetAlgebra.Kind.UNION, SortedSetAlgebra.Aggregate.MAX, a, b)).containsExactly("m=6.0");
        assertThat(combine(SortedSetAlgebra.Kind.UNION, SortedSetAlgebra.Aggregate.MIN, a, b)).containsExactly("m=-4.0");
    }

    private static SortedSetAlgebra.Source source(double weight, Object... memberScores) {
        Map<ByteKey, Double> scores = new LinkedHashMap<>();
        for (int i = 0; i < memberScores.length; i += 2) {
            scores.put(new ByteKey(((String) memberScores[i]).getBytes(StandardCharsets.UTF_8)),
                    ((Number) memberScores[i + 1]).doubleValue());
        }
        return new SortedSetAlgebra.Source(scores, weight);
    }

    private static List<String> combine(SortedSetAlgebra.Kind kind, SortedSetAlgebra.Aggregate aggregate,
                                        SortedSetAlgebra.Source... sources) {
        List<String> out = new ArrayList<>();
        for (SortedSetEntry.Scored scored : SortedSetAlgebra.combine(kind, aggregate, List.of(sources))) {
            out.add(new String(scored.member().bytes(), StandardCharsets.UTF_8) + "=" + scored.score());
        }
        return out;
    }
}
