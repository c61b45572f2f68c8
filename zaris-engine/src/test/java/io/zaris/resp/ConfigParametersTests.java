package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ConfigParametersTests {

    private static final RespBackend.Memory MEMORY = new RespBackend.Memory(10, 4096, "allkeys-lru", 0, 0);

    @Test
    void saveAndAppendonlyAreReportedAsNamesWithValuesTheWayRedisBenchmarkReadsThem() {
        assertThat(matching("save")).containsExactly("save", "");
        assertThat(matching("appendonly")).containsExactly("appendonly", "no");
    }

    @Test
    void patternsAreGlobsMatchedWithoutRegardToCaseAndEachParameterIsReportedOnce() {
        assertThat(matching("MAXMEMORY*")).containsExactly("maxmemory", "4096", "maxmemory-policy", "allkeys-lru");
        assertThat(matching("save", "s*")).containsExactly("save", "");
        assertThat(matching("*")).hasSize(12);
    }

    @Test
    void anUnknownParameterYieldsAnEmptyReplyNotAnError() {
        assertThat(matching("no-such-parameter")).isEmpty();
    }

    private static List<String> matching(String... patterns) {
        List<byte[]> bytes = Arrays.stream(patterns).map(p -> p.getBytes(StandardCharsets.UTF_8)).toList();
        return ConfigParameters.matching(bytes, MEMORY).stream()
                .map(reply -> new String(((RespReply.Bulk) reply).bytes(), StandardCharsets.UTF_8))
                .toList();
    }
}
