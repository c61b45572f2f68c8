package io.zaris.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.Change;
import io.zaris.protocol.Request;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class StoreMemoryTests {

    private long now = 1_000_000;
    private final List<Change> shipped = new ArrayList<>();
    private final NodeStore active = new NodeStore(2, () -> now, 1000, 1 << 20, (segment, changes) -> {
        shipped.addAll(changes);
        return CompletableFuture.completedFuture(null);
    });
    private final NodeStore replica = new NodeStore(2, () -> now);

    @Test
    void aPutIsChargedItsKeyItsValueSlotAndTheEntryOverhead() {
        put("key", "value", Request.NO_TTL);
        assertThat(active.memory().usedBytes()).isEqualTo(EntrySize.OVERHEAD_BYTES + 3 + 8); // a 5-byte value takes an 8-byte slot
        assertThat(active.segmentBytes(0)).isEqualTo(active.memory().usedBytes());
    }

    @Test
    void anOverwriteExchangesTheOldValueForTheNewOne() {
        put("key", "value", Request.NO_TTL);
        put("key", "a much longer value", 5000);
        assertThat(active.memory().usedBytes()).isEqualTo(EntrySize.of(3, "a much longer value".length()));
        put("key", "v", Request.NO_TTL);
        assertThat(active.memory().usedBytes()).isEqualTo(EntrySize.of(3, 1));
        assertThat(active.segmentKeysWithTtl(0)).isZero();
    }

    @Test
    void deletesIncrementsTouchesAndMultiWritesKeepTheFigureExact() {
        put("a", "1", Request.NO_TTL);
        active.increment(0, bytes("a"), 41);
        active.touch(0, bytes("a"), 60_000);
        active.multiPut(1, List.of(bytes("b"), bytes("c")), List.of(bytes("xx"), bytes("yyy")), Request.NO_TTL, 0);
        assertThat(active.memory().usedBytes()).isEqualTo(EntrySize.of(1, 2) + EntrySize.of(1, 2) + EntrySize.of(1, 3));
        active.multiDelete(1, List.of(bytes("b"), bytes("c")), 0);
        active.delete(0, bytes("a"), Request.ANY_VERSION);
        assertThat(active.memory().usedBytes()).isZero();
        assertThat(active.segmentKeysWithTtl(0)).isZero();
    }

    @Test
    void anExpiredEntryIsChargedUntilAChangeRemovesIt() {
        put("k", "v", 10);
        now += 10;
        assertThat(active.get(0, bytes("k"))).isNull();
        assertThat(active.memory().usedBytes()).isEqualTo(EntrySize.of(1, 1));
        put("k", "w", Request.NO_TTL);
        assertThat(active.memory().usedBytes()).isEqualTo(EntrySize.of(1, 1));
    }

    @Test
    void aReplicaIsChargedWhatItsActiveOwnerIs() {
        for (int i = 0; i < 50; i++) {
            put("k" + i, "value-" + i, i % 2 == 0 ? Request.NO_TTL : 60_000);
        }
        active.delete(0, bytes("k7"), Request.ANY_VERSION);
        replica.applyReplicated(0, List.copyOf(shipped));
        assertThat(replica.memory().usedBytes()).isEqualTo(active.memory().usedBytes());
        assertThat(replica.segmentKeysWithTtl(0)).isEqualTo(active.segmentKeysWithTtl(0));
    }

    @Test
    void aSnapshotReplacesTheSegmentsCharge() {
        replica.put(0, bytes("stale"), bytes("left over from an older epoch"), Request.NO_TTL, false, Request.ANY_VERSION);
        put("a", "1", Request.NO_TTL);
        put("b", "22", 60_000);
        List<SegmentSnapshot> snapshots = new ArrayList<>();
        active.catchUp(0, -1, 1, tail -> { }, snapshots::add);
        SegmentSnapshot snapshot = snapshots.get(0);
        replica.installSnapshotChunk(0, true, true, snapshot.revision(), snapshot.entries());
        assertThat(replica.memory().usedBytes()).isEqualTo(EntrySize.of(1, 1) + EntrySize.of(1, 2));
        assertThat(replica.segmentKeysWithTtl(0)).isEqualTo(1);
    }

    private void put(String key, String value, long ttlMillis) {
        active.put(0, bytes(key), bytes(value), ttlMillis, false, Request.ANY_VERSION);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
