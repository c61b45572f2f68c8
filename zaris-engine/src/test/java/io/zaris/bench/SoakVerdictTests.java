package io.zaris.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.bench.SoakVerdict.Sample;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongToDoubleFunction;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class SoakVerdictTests {

    private static final long RUN = 600;
    private static final double BUDGET = 32;
    private static final double SLACK = 24;
    private static final double TOLERANCE = 0.15;

    /** One node sampled every 15 s; it starts evicting at 60 s. */
    private static List<Sample> node(String id, LongToDoubleFunction heapAt) {
        List<Sample> samples = new ArrayList<>();
        for (long t = 0; t <= RUN; t += 15) {
            samples.add(new Sample(t, id, heapAt.applyAsDouble(t), t >= 60 ? t * 100 : 0));
        }
        return samples;
    }

    private static SoakVerdict.Result judge(List<Sample> samples) {
        return SoakVerdict.judge(samples, RUN, BUDGET, SLACK, TOLERANCE, 1_000_000, 0);
    }

    @Test
    void aHeapThatFillsThenStaysFlatPasses() {
        List<Sample> samples = new ArrayList<>(node("n1", t -> t < 60 ? 10 + t / 2.0 : 40 + (t / 15 % 3)));
        samples.addAll(node("n2", t -> t < 60 ? 10 : 42));

        SoakVerdict.Result result = judge(samples);

        assertThat(result.passed()).as(String.join("\n", result.lines())).isTrue();
        assertThat(result.lines()).last().isEqualTo("VERDICT: PASS");
    }

    @Test
    void theFillUpBeforeTheFirstEvictionDoesNotCountAsGrowth() {
        // Mean over the whole first third would be about 28 MiB; the last third sits at 44 MiB.
        SoakVerdict.Result result = judge(node("n1", t -> t < 60 ? 10 : 44));

        assertThat(result.passed()).as(String.join("\n", result.lines())).isTrue();
    }

    @Test
    void aSlowLeakBeyondTheToleranceFails() {
        // 40 MiB once full, growing 2 MiB a minute: the last third averages far above the first.
        SoakVerdict.Result result = judge(node("n1", t -> t < 60 ? 10 : 40 + t / 30.0));

        assertThat(result.passed()).isFalse();
        assertThat(result.lines()).anyMatch(line -> line.startsWith("FAIL: n1 mean live heap"));
    }

    @Test
    void oneSampleAboveBudgetPlusSlackFails() {
        SoakVerdict.Result result = judge(node("n1", t -> t == 300 ? 56.5 : 40));

        assertThat(result.passed()).isFalse();
        assertThat(result.lines()).anyMatch(line -> line.startsWith("FAIL: n1 peak live heap 56.5 MiB"));
    }

    @Test
    void aNodeThatStoppedAnsweringFails() {
        SoakVerdict.Result result = judge(node("n1", t -> t >= 450 ? Double.NaN : 40));

        assertThat(result.passed()).isFalse();
        assertThat(result.lines()).anyMatch(line -> line.equals("FAIL: n1 gave no heap figure at t=450 s"));
    }

    @Test
    void aRunTooShortForTheBudgetToFillIsInconclusiveAndFails() {
        List<Sample> samples = List.of(new Sample(0, "n1", 10, 0), new Sample(15, "n1", 20, 0), new Sample(30, "n1", 25, 0));

        SoakVerdict.Result result = SoakVerdict.judge(samples, 30, BUDGET, SLACK, TOLERANCE, 1000, 0);

        assertThat(result.passed()).isFalse();
        assertThat(result.lines()).anyMatch(line -> line.contains("n1 inconclusive"));
    }

    @Test
    void failedOperationsAboveTheLimitFail() {
        List<Sample> flat = node("n1", t -> 40);

        assertThat(SoakVerdict.judge(flat, RUN, BUDGET, SLACK, TOLERANCE, 1_000_000, 1_000).passed()).isTrue();
        assertThat(SoakVerdict.judge(flat, RUN, BUDGET, SLACK, TOLERANCE, 1_000_000, 1_001).passed()).isFalse();
    }

    @Test
    void noSamplesFail() {
        assertThat(SoakVerdict.judge(List.of(), RUN, BUDGET, SLACK, TOLERANCE, 0, 0).passed()).isFalse();
    }
}
