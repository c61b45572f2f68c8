package io.zaris.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.Change;
import io.zaris.protocol.Request;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Lazy expiry on the active owner's reads: the expired key is removed as a replicated change, not only hidden. */
class LazyExpiryTests {

    private static final long EPOCH = 3;
    private static final long ENTRY = EntrySize.of(1, 100);

    private long now = 1_000_000;
    private final List<Change> shipped = new ArrayList<>();
    private final NodeStore active = new NodeStore(1, () -> now, 1000, 1 << 20, (segment, changes) -> {
        shipped.addAll(changes);
        return CompletableFuture.completedFuture(null);
    });

    @Test
    void theActiveOwnersReadOfAnExpiredKeyRemovesItAndFreesItsBytesOnTheReplicaToo() {
        put("t", 1000);
        put("p", Request.NO_TTL);
        assertThat(active.memory().usedBytes()).isEqualTo(2 * ENTRY);
        now += 1000;

        assertThat(active.getRemovingExpired(0, key("t"), EPOCH)).isNull();

        assertThat(active.memory().usedBytes()).isEqualTo(ENTRY);
        assertThat(active.memory().expirations()).isEqualTo(1);
        assertThat(active.segmentSize(0)).isEqualTo(1);
        Change removal = shipped.get(shipped.size() - 1);
        assertThat(removal.isRemoval()).isTrue();
        assertThat(removal.epoch()).isEqualTo(EPOCH);
        assertThat(new String(removal.key(), StandardCharsets.US_ASCII)).isEqualTo("t");

        NodeStore replica = new NodeStore(1, () -> now);
        assertThat(replica.applyReplicated(0, shipped).gap()).isFalse();
        assertThat(replica.segmentSize(0)).isEqualTo(1);
        assertThat(replica.memory().usedBytes()).isEqualTo(ENTRY);
        assertThat(replica.segmentRevision(0)).isEqualTo(active.segmentRevision(0));
    }

    @Test
    void aPlainReadOnlyHidesTheExpiredKey() {
        put("t", 1000);
        shipped.clear();
        now += 1000;

        assertThat(active.get(0, key("t"))).isNull();

        assertThat(active.memory().usedBytes()).isEqualTo(ENTRY);
        assertThat(active.segmentSize(0)).isEqualTo(1);
        assertThat(shipped).isEmpty();
    }

    @Test
    void liveAndAbsentKeysChangeNothing() {
        put("t", 1000);
        shipped.clear();
        now += 999;

        assertThat(active.getRemovingExpired(0, key("t"), EPOCH)).isNotNull();
        assertThat(active.getRemovingExpired(0, key("absent"), EPOCH)).isNull();

        assertThat(shipped).isEmpty();
        assertThat(active.memory().expirations()).isZero();
    }

    @Test
    void aRetiredCopyLeavesTheExpiredKeyToTheNewOwner() {
        put("t", 1000);
        active.retireAndReadSince(0, EPOCH + 1, 0);
        shipped.clear();
        now += 1000;

        assertThat(active.getRemovingExpired(0, key("t"), EPOCH)).isNull();

        assertThat(active.segmentSize(0)).isEqualTo(1);
        assertThat(shipped).isEmpty();
    }

    @Test
    void aMultiKeyReadRemovesEachExpiredKeyAndReturnsTheLiveOnes() {
        put("a", 10);
        put("b", Request.NO_TTL);
        put("c", 10);
        now += 10;

        List<?> values = active.multiGetRemovingExpired(0, List.of(key("a"), key("b"), key("c")), EPOCH);

        assertThat(values).hasSize(3);
        assertThat(values.get(0)).isNull();
        assertThat(values.get(1)).isNotNull();
        assertThat(values.get(2)).isNull();
        assertThat(active.segmentSize(0)).isEqualTo(1);
        assertThat(active.memory().expirations()).isEqualTo(2);
    }

    private void put(String key, long ttlMillis) {
        active.put(0, key(key), new byte[100], ttlMillis, false, Request.ANY_VERSION, EPOCH);
    }

    private static byte[] key(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
