package io.zaris.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.KvStatus;
import io.zaris.model.VersionedValue;
import io.zaris.protocol.Request;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeStoreTests {

    private long now = 1_000_000;
    private final NodeStore store = new NodeStore(4, () -> now);

    @Test
    void versionsStrictlyIncreaseAcrossEveryChangeIncludingDeleteAndRecreate() {
        long v1 = put("k", "a").version();
        long v2 = put("k", "b").version();
        long deleted = store.delete(0, key("k"), Request.ANY_VERSION).version();
        long v3 = put("k", "c").version();
        long touched = store.touch(0, key("k"), 5000).version();
        long incremented = store.increment(0, key("n"), 1).version();
        assertThat(List.of(v1, v2, deleted, v3, touched, incremented)).isSorted().doesNotHaveDuplicates();
        assertThat(store.get(0, key("k")).version()).isEqualTo(touched);
    }

    @Test
    void ifMatchVersionAppliesOnlyOnTheCurrentVersion() {
        long v1 = put("k", "a").version();
        WriteResult stale = store.put(0, key("k"), value("x"), Request.NO_TTL, false, v1 + 100);
        assertThat(stale).isEqualTo(new WriteResult(KvStatus.CONFLICT, v1));
        WriteResult ok = store.put(0, key("k"), value("y"), Request.NO_TTL, false, v1);
        assertThat(ok.status()).isEqualTo(KvStatus.OK);
        assertThat(text(store.get(0, key("k")))).isEqualTo("y");
    }

    @Test
    void expectedVersionZeroMeansOnlyIfAbsent() {
        assertThat(store.put(0, key("k"), value("a"), Request.NO_TTL, false, 0).status()).isEqualTo(KvStatus.OK);
        assertThat(store.put(0, key("k"), value("b"), Request.NO_TTL, false, 0).status()).isEqualTo(KvStatus.CONFLICT);
    }

    @Test
    void ifAbsentConflictsWithALiveValueButNotWithAnExpiredOne() {
        store.put(0, key("k"), value("a"), 100, false, Request.ANY_VERSION);
        assertThat(store.put(0, key("k"), value("b"), Request.NO_TTL, true, Request.ANY_VERSION).status())
                .isEqualTo(KvStatus.CONFLICT);
        now += 100;
        assertThat(store.put(0, key("k"), value("c"), Request.NO_TTL, true, Request.ANY_VERSION).status())
                .isEqualTo(KvStatus.OK);
    }

    @Test
    void expiredEntriesReadAsAbsent() {
        store.put(0, key("k"), value("a"), 50, false, Request.ANY_VERSION);
        now += 49;
        assertThat(store.get(0, key("k")).ttlRemainingMillis()).isEqualTo(1);
        now += 1;
        assertThat(store.get(0, key("k"))).isNull();
        assertThat(store.delete(0, key("k"), Request.ANY_VERSION).status()).isEqualTo(KvStatus.NOT_FOUND);
    }

    @Test
    void touchWithoutTtlPersistsTheEntry() {
        store.put(0, key("k"), value("a"), 50, false, Request.ANY_VERSION);
        store.touch(0, key("k"), Request.NO_TTL);
        now += 10_000;
        assertThat(text(store.get(0, key("k")))).isEqualTo("a");
    }

    @Test
    void incrementStoresDecimalTextAndKeepsTheTtl() {
        store.put(0, key("n"), value("41"), 1000, false, Request.ANY_VERSION);
        IncrementResult result = store.increment(0, key("n"), 1);
        assertThat(result.value()).isEqualTo(42);
        assertThat(text(store.get(0, key("n")))).isEqualTo("42");
        assertThat(store.get(0, key("n")).ttlRemainingMillis()).isEqualTo(1000);
    }

    @Test
    void incrementRejectsNonNumbersAndOverflowWithoutChangingTheValue() {
        put("text", "12a");
        assertThat(store.increment(0, key("text"), 1).status()).isEqualTo(KvStatus.WRONG_TYPE);
        put("max", Long.toString(Long.MAX_VALUE));
        IncrementResult overflow = store.increment(0, key("max"), 1);
        assertThat(overflow.status()).isEqualTo(KvStatus.WRONG_TYPE);
        assertThat(overflow.error()).contains("overflow");
        assertThat(text(store.get(0, key("max")))).isEqualTo(Long.toString(Long.MAX_VALUE));
    }

    @Test
    void multiKeyOperationsWorkOnOneSegment() {
        long[] versions = store.multiPut(1, List.of(key("a"), key("b")), List.of(value("1"), value("2")), Request.NO_TTL, 0)
                .versions();
        assertThat(versions).containsExactly(1, 2);
        List<VersionedValue> values = store.multiGet(1, List.of(key("a"), key("zz"), key("b")));
        assertThat(values.get(1)).isNull();
        assertThat(text(values.get(2))).isEqualTo("2");
        assertThat(store.multiDelete(1, List.of(key("a"), key("zz")), 0).deleted()).isEqualTo(1);
        List<byte[]> keys = new ArrayList<>();
        store.collectKeys(1, keys);
        assertThat(keys).hasSize(1);
    }

    private WriteResult put(String k, String v) {
        return store.put(0, key(k), value(v), Request.NO_TTL, false, Request.ANY_VERSION);
    }

    private static byte[] key(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(VersionedValue value) {
        return new String(value.value(), StandardCharsets.UTF_8);
    }
}
