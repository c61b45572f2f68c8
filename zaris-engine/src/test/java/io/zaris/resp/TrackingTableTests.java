package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The tracking table: a change names each reader once, the bound evicts the oldest key, a lost segment is emptied. */
@Tag("unit")
class TrackingTableTests {

    @Test
    void aChangeNamesEveryReaderOnceAndThenNobody() {
        TrackingTable table = new TrackingTable(10);
        assertThat(table.isEmpty()).isTrue();
        table.remember(3, bytes("k"), 1);
        table.remember(3, bytes("k"), 2);
        table.remember(3, bytes("k"), 1);
        assertThat(table.size()).isEqualTo(1);

        assertThat(table.changed(3, bytes("k"))).containsExactly(1, 2);
        assertThat(table.changed(3, bytes("k"))).as("told once; a new read remembers it again").isEmpty();
        assertThat(table.changed(3, bytes("other"))).isEmpty();
        assertThat(table.isEmpty()).isTrue();
    }

    @Test
    void rememberingPastTheBoundEvictsTheOldestKeyAndNamesItsReaders() {
        TrackingTable table = new TrackingTable(2);
        assertThat(table.remember(0, bytes("a"), 7)).isEmpty();
        table.remember(0, bytes("a"), 8);
        assertThat(table.remember(1, bytes("b"), 7)).isEmpty();

        List<TrackingTable.Invalidation> evicted = table.remember(2, bytes("c"), 9);

        assertThat(evicted).hasSize(2);
        assertThat(evicted).extracting(TrackingTable.Invalidation::clientId).containsExactly(7L, 8L);
        assertThat(evicted.get(0).keys()).singleElement().isEqualTo(bytes("a"));
        assertThat(table.size()).isEqualTo(2);
        assertThat(table.changed(0, bytes("a"))).as("forgotten when evicted").isEmpty();
        assertThat(table.changed(1, bytes("b"))).containsExactly(7);
    }

    @Test
    void droppingSegmentsForgetsTheirKeysGroupedPerReaderAndKeepsTheOthers() {
        TrackingTable table = new TrackingTable(100);
        table.remember(4, bytes("x1"), 1);
        table.remember(4, bytes("x2"), 1);
        table.remember(4, bytes("x2"), 2);
        table.remember(5, bytes("y"), 1);
        table.remember(9, bytes("z"), 1);
        BitSet lost = new BitSet();
        lost.set(4, 6);

        List<TrackingTable.Invalidation> dropped = table.dropSegments(lost);

        assertThat(dropped).extracting(TrackingTable.Invalidation::clientId).containsExactly(1L, 2L);
        assertThat(dropped.get(0).keys()).extracting(k -> new String(k, StandardCharsets.UTF_8))
                .containsExactly("x1", "x2", "y");
        assertThat(dropped.get(1).keys()).extracting(k -> new String(k, StandardCharsets.UTF_8)).containsExactly("x2");
        assertThat(table.size()).isEqualTo(1);
        assertThat(table.changed(9, bytes("z"))).containsExactly(1);
        assertThat(table.dropSegments(lost)).isEmpty();
    }

    @Test
    void aTableWithoutRoomIsRefused() {
        assertThatThrownBy(() -> new TrackingTable(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one key");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
