package io.zaris.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ChargedMemoryTests {

    @Test
    void readsTheGaugeWithItsTagsOutOfAPrometheusPage() throws IOException {
        String page = """
                # HELP zaris_node_memory_budget_bytes
                # TYPE zaris_node_memory_budget_bytes gauge
                zaris_node_memory_budget_bytes{node="n1"} 1.207959552E9
                # HELP zaris_node_memory_used_bytes
                # TYPE zaris_node_memory_used_bytes gauge
                zaris_node_memory_used_bytes{node="n1"} 1.43521E8
                jvm_memory_used_bytes{area="heap",id="PS Old Gen"} 2.0E8
                """;
        assertThat(ChargedMemory.parse(page, 9000)).isEqualTo(143_521_000L);
    }

    @Test
    void readsTheGaugeWithoutUnitOrTags() throws IOException {
        assertThat(ChargedMemory.parse("zaris_node_memory_used 0.0\n", 9000)).isZero();
        assertThat(ChargedMemory.parse("zaris_node_memory_used{node=\"n2\",} 512.0\n", 9000)).isEqualTo(512);
    }

    @Test
    void aPageWithoutTheGaugeIsATypedError() {
        assertThatThrownBy(() -> ChargedMemory.parse("zaris_node_memory_budget_bytes{node=\"n1\"} 1.0E9\n", 9001))
                .isInstanceOf(IOException.class).hasMessageContaining("port 9001");
        assertThatThrownBy(() -> ChargedMemory.parse("zaris_node_memory_used_bytes{node=\"n1\"} NaNx\n", 9002))
                .isInstanceOf(IOException.class).hasMessageContaining("not a number");
    }
}
