package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.protocol.ResponseCodec.ScanPage;
import io.zaris.transport.ZarisException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScanMergeTests {

    @Test
    void everyNodeStartsAtCursorZero() {
        ScanMerge merge = new ScanMerge(List.of("n1", "n2"));

        assertThat(merge.cursor("n1")).isZero();
        assertThat(merge.cursor("n2")).isZero();
        assertThat(merge.isComplete()).isFalse();
        assertThat(merge.keys()).isEmpty();
    }

    @Test
    void aKeyReportedByTwoNodesDuringAMoveIsReturnedOnce() {
        ScanMerge merge = new ScanMerge(List.of("n1", "n2"));

        // The segment holding "moving" changed owner from n1 to n2 between the two nodes' pages.
        merge.add("n1", new ScanPage(-1, keys("a", "moving")));
        merge.add("n2", new ScanPage(-1, keys("moving", "b")));

        assertThat(merge.keys()).containsExactly("a", "moving", "b");
        assertThat(merge.isComplete()).isTrue();
    }

    @Test
    void cursorsAdvancePerNode() {
        ScanMerge merge = new ScanMerge(List.of("n1", "n2"));

        assertThat(merge.add("n1", new ScanPage(40, keys("a")))).isTrue();
        assertThat(merge.cursor("n1")).isEqualTo(40);
        assertThat(merge.cursor("n2")).isZero();

        assertThat(merge.add("n2", new ScanPage(7, keys("b")))).isTrue();
        assertThat(merge.add("n1", new ScanPage(90, keys("c")))).isTrue();
        assertThat(merge.cursor("n1")).isEqualTo(90);
        assertThat(merge.cursor("n2")).isEqualTo(7);

        assertThat(merge.add("n1", new ScanPage(-1, keys()))).isFalse();
        assertThat(merge.cursor("n1")).isEqualTo(ScanMerge.DONE);
        assertThat(merge.isComplete()).isFalse();

        assertThat(merge.add("n2", new ScanPage(-1, keys("d")))).isFalse();
        assertThat(merge.isComplete()).isTrue();
        assertThat(merge.keys()).containsExactly("a", "b", "c", "d");
    }

    @Test
    void aClusterWithoutNodesIsCompleteAtOnce() {
        assertThat(new ScanMerge(List.of()).isComplete()).isTrue();
    }

    @Test
    void aNextCursorThatDoesNotMoveForwardFailsTheScan() {
        ScanMerge merge = new ScanMerge(List.of("n1"));
        merge.add("n1", new ScanPage(12, keys("a")));

        assertThatThrownBy(() -> merge.add("n1", new ScanPage(12, keys("b"))))
                .isInstanceOf(ZarisException.class)
                .hasMessageContaining("node n1 answered SCAN at cursor 12 with next cursor 12");
        assertThat(merge.cursor("n1")).isEqualTo(12);
        assertThat(merge.keys()).containsExactly("a");
    }

    @Test
    void aPageAfterTheLastOrFromAnUnknownNodeIsABug() {
        ScanMerge merge = new ScanMerge(List.of("n1"));
        merge.add("n1", new ScanPage(-1, keys("a")));

        assertThatThrownBy(() -> merge.add("n1", new ScanPage(-1, keys("b"))))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> merge.add("n9", new ScanPage(-1, keys("b"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("n9");
    }

    private static List<byte[]> keys(String... keys) {
        return Arrays.stream(keys).map(key -> key.getBytes(StandardCharsets.UTF_8)).toList();
    }
}
