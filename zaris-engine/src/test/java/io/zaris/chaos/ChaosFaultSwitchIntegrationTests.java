package io.zaris.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.AckMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The chaos run can fail: with the nodes' test-only fault switch armed, each node acknowledges its 50th INCREMENT
 * as active owner without applying or replicating it, and a short run (30 s of faults, 3 processes, RF 2, SYNC)
 * must end with the checker naming a lost increment. Without this test, a run that passes could be a checker that
 * sees nothing.
 */
@Tag("multi-process")
class ChaosFaultSwitchIntegrationTests {

    private static final String DROP_THE_50TH_INCREMENT = "-Dzaris.test-fault.drop-increment=50";

    @Test
    void aNodeThatAcknowledgesOneIncrementWithoutApplyingItFailsTheRun() throws Exception {
        Path output = Path.of("target", "chaos-fault-switch");
        ChaosOptions options = new ChaosOptions(Duration.ofSeconds(30), 3, 2, AckMode.SYNC, 20261204L,
                Duration.ofSeconds(6), output);

        ChaosReport report = ChaosRun.run(options, List.of(DROP_THE_50TH_INCREMENT));
        System.out.println(report.markdown());

        assertThat(nodeLogsMention(output.resolve("logs"), "acknowledged an INCREMENT"))
                .as("a node logged the increment it dropped").isTrue();
        assertThat(report.passed()).as("the run passed although a node dropped an acknowledged increment").isFalse();
        assertThat(report.verdict().of(Finding.Kind.LOST_INCREMENT)).as("lost increments").isNotEmpty();
        assertThat(report.markdown()).contains("Result: **FAIL**");
    }

    private static boolean nodeLogsMention(Path logs, String text) throws Exception {
        try (Stream<Path> files = Files.list(logs)) {
            for (Path log : files.filter(path -> path.toString().endsWith(".log")).toList()) {
                if (Files.readString(log).contains(text)) {
                    return true;
                }
            }
        }
        return false;
    }
}
