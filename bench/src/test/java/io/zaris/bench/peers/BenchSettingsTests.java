package io.zaris.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class BenchSettingsTests {

    private static final Path ROOT = Path.of("repository");

    @Test
    void memoryOnlyMeasuresTheMemoryRowOfItsSystemsAndNothingElse() {
        BenchSettings settings = BenchSettings.parse(new String[] {"--memory-only"}, ROOT);
        assertThat(settings.memoryOnly()).isTrue();
        assertThat(settings.isFull()).isFalse();
        assertThat(settings.spring()).isFalse();
        assertThat(settings.memoryEntries()).isEqualTo(1_000_000);
        assertThat(settings.systems()).containsExactlyElementsOf(BenchSettings.MEMORY_ROW_SYSTEMS);
        assertThat(settings.reportDirectory()).isEqualTo(ROOT.resolve("bench").resolve("target"));
    }

    @Test
    void memoryOnlyKeepsTheNamedSystemsItMeasuresAndAQuickRowIsSmaller() {
        BenchSettings settings = BenchSettings.parse(
                new String[] {"--memory-only", "--quick", "--systems", "zaris-async,zaris-sync,redis"}, ROOT);
        assertThat(settings.systems()).containsExactly("zaris-async", "redis");
        assertThat(settings.memoryEntries()).isEqualTo(200_000);
    }

    @Test
    void memoryOnlyRefusesOptionsThatContradictIt() {
        for (List<String> args : List.of(List.of("--memory-only", "--no-memory"), List.of("--memory-only", "--spring-only"),
                List.of("--memory-only", "--systems", "zaris-sync"))) {
            assertThatIllegalArgumentException().isThrownBy(() -> BenchSettings.parse(args.toArray(String[]::new), ROOT))
                    .withMessageContaining("--memory-only");
        }
    }

    @Test
    void aRunWithoutItKeepsEveryRow() {
        BenchSettings settings = BenchSettings.parse(new String[0], ROOT);
        assertThat(settings.memoryOnly()).isFalse();
        assertThat(settings.spring()).isTrue();
        assertThat(settings.memoryEntries()).isEqualTo(1_000_000);
        assertThat(settings.isFull()).isTrue();
    }
}
