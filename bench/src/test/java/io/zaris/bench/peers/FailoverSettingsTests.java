package io.zaris.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class FailoverSettingsTests {

    private static final Path ROOT = Path.of("/repo");

    @Test
    void withoutArgumentsEverySystemRunsWithTheDefaultLoadAndAKilledNonLeader() {
        FailoverSettings settings = FailoverSettings.parse(new String[0], ROOT);
        assertThat(settings.systems()).containsExactly("zaris-sync", "zaris-async", "redis-replicas", "hazelcast");
        assertThat(settings.keys()).isEqualTo(512);
        assertThat(settings.interval()).isEqualTo(Duration.ofMillis(100));
        assertThat(settings.warm()).isEqualTo(Duration.ofSeconds(8));
        assertThat(settings.recovery()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings.steadyPeriod()).isEqualTo(Duration.ofSeconds(4));
        assertThat(settings.victim()).isEqualTo(VictimChoice.NON_LEADER);
        assertThat(settings.reportDirectory()).isEqualTo(ROOT.resolve("bench/target"));
        assertThat(settings.preload()).isZero();
        assertThat(settings.describe()).doesNotContain("loaded first");
    }

    @Test
    void aPreloadIsDescribedAndMustBePositive() {
        FailoverSettings settings = FailoverSettings.parse(new String[] {"--preload", "1000000"}, ROOT);
        assertThat(settings.preload()).isEqualTo(1_000_000);
        assertThat(settings.describe()).endsWith("; 1,000,000 more keys of 100 B loaded first");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> FailoverSettings.parse(new String[] {"--preload", "0"}, ROOT))
                .hasMessageContaining("--preload");
    }

    @Test
    void optionsChangeTheLoadTheVictimAndWhereTheReportGoes() {
        FailoverSettings settings = FailoverSettings.parse(new String[] {"--systems", "hazelcast,zaris-async", "--keys", "64",
                "--interval-ms", "20", "--warm-seconds", "4", "--recovery-seconds", "60", "--kill", "leader", "--record"}, ROOT);
        assertThat(settings.systems()).containsExactly("hazelcast", "zaris-async");
        assertThat(settings.keys()).isEqualTo(64);
        assertThat(settings.interval()).isEqualTo(Duration.ofMillis(20));
        assertThat(settings.warm()).isEqualTo(Duration.ofSeconds(4));
        assertThat(settings.recovery()).isEqualTo(Duration.ofSeconds(60));
        assertThat(settings.victim().kind()).isEqualTo(VictimChoice.Kind.LEADER);
        assertThat(settings.reportDirectory()).isEqualTo(ROOT.resolve("docs/benchmarks"));
        assertThat(settings.arguments()).startsWith("--systems hazelcast,zaris-async --keys 64");
    }

    @Test
    void unknownSystemsOptionsAndValuesAreRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> FailoverSettings.parse(new String[] {"--systems", "redis"}, ROOT))
                .withMessageContaining("unknown system");
        assertThatIllegalArgumentException().isThrownBy(() -> FailoverSettings.parse(new String[] {"--fast"}, ROOT));
        assertThatIllegalArgumentException().isThrownBy(() -> FailoverSettings.parse(new String[] {"--keys", "0"}, ROOT));
        assertThatIllegalArgumentException().isThrownBy(() -> FailoverSettings.parse(new String[] {"--keys"}, ROOT))
                .withMessageContaining("needs a value");
    }

    @Test
    void theVictimIsANonLeaderTheLeaderOrANodesNumber() {
        assertThat(VictimChoice.parse("non-leader")).isEqualTo(VictimChoice.NON_LEADER);
        assertThat(VictimChoice.parse("leader")).isEqualTo(new VictimChoice(VictimChoice.Kind.LEADER, 0));
        assertThat(VictimChoice.parse("2")).isEqualTo(new VictimChoice(VictimChoice.Kind.NUMBER, 2));
        assertThatIllegalArgumentException().isThrownBy(() -> VictimChoice.parse("0"));
        assertThatIllegalArgumentException().isThrownBy(() -> VictimChoice.parse("follower"));
        assertThatIllegalArgumentException().isThrownBy(() -> new VictimChoice(VictimChoice.Kind.LEADER, 1));
    }
}
