package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.zaris.model.KvStatus;
import io.zaris.model.VersionedValue;
import io.zaris.transport.ZarisStatusException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The end-to-end run every way of running a cluster must pass: put/get, CAS, IfAbsent, increment, TTL,
 * multi-key and scan, through a real client against real nodes. Keys carry a per-run prefix so a scenario
 * can share a cluster with other tests.
 */
public final class ClusterScenario {

    private ClusterScenario() {
    }

    public static void exercise(ZarisClient client, String prefix) {
        BlockingZarisClient zaris = client.sync();

        // put / get / versions
        long v1 = zaris.put(prefix + "greeting", utf8("hello"));
        Optional<VersionedValue> read = zaris.get(prefix + "greeting");
        assertThat(read).isPresent();
        assertThat(text(read.get())).isEqualTo("hello");
        assertThat(read.get().version()).isEqualTo(v1);
        long v2 = zaris.put(prefix + "greeting", utf8("hello again"));
        assertThat(v2).isGreaterThan(v1);
        assertThat(zaris.get(prefix + "missing")).isEmpty();

        // compare-and-set on the version
        WriteOutcome stale = zaris.putIfVersion(prefix + "greeting", utf8("lost"), v1, null);
        assertThat(stale.applied()).isFalse();
        assertThat(stale.version()).isEqualTo(v2);
        WriteOutcome cas = zaris.putIfVersion(prefix + "greeting", utf8("won"), v2, null);
        assertThat(cas.applied()).isTrue();
        assertThat(cas.version()).isGreaterThan(v2);
        assertThat(text(zaris.get(prefix + "greeting").orElseThrow())).isEqualTo("won");
        assertThat(zaris.deleteIfVersion(prefix + "greeting", v1).applied()).isFalse();
        assertThat(zaris.deleteIfVersion(prefix + "greeting", cas.version()).applied()).isTrue();
        assertThat(zaris.get(prefix + "greeting")).isEmpty();

        // IfAbsent
        WriteOutcome first = zaris.putIfAbsent(prefix + "lock", utf8("owner-1"), null);
        WriteOutcome second = zaris.putIfAbsent(prefix + "lock", utf8("owner-2"), null);
        assertThat(first.applied()).isTrue();
        assertThat(second.applied()).isFalse();
        assertThat(second.version()).isEqualTo(first.version());
        assertThat(text(zaris.get(prefix + "lock").orElseThrow())).isEqualTo("owner-1");
        assertThat(zaris.delete(prefix + "lock")).isTrue();
        assertThat(zaris.delete(prefix + "lock")).isFalse();

        // counters read back as decimal text
        assertThat(zaris.increment(prefix + "counter", 5)).isEqualTo(5);
        assertThat(zaris.increment(prefix + "counter", -7)).isEqualTo(-2);
        assertThat(text(zaris.get(prefix + "counter").orElseThrow())).isEqualTo("-2");
        zaris.put(prefix + "not-a-number", utf8("abc"));
        assertThatThrownBy(() -> zaris.increment(prefix + "not-a-number", 1))
                .isInstanceOfSatisfying(ZarisStatusException.class,
                        e -> assertThat(e.status()).isEqualTo(KvStatus.WRONG_TYPE));

        // TTL: reported while alive, gone after expiry, removable with expire(null)
        zaris.put(prefix + "short-lived", utf8("bye"), Duration.ofMillis(300));
        assertThat(zaris.get(prefix + "short-lived").orElseThrow().ttlRemainingMillis()).isBetween(1L, 300L);
        await().atMost(Duration.ofSeconds(10)).until(() -> zaris.get(prefix + "short-lived").isEmpty());
        zaris.put(prefix + "kept", utf8("stay"), Duration.ofMillis(300));
        assertThat(zaris.expire(prefix + "kept", null)).isTrue();
        assertThat(zaris.get(prefix + "kept").orElseThrow().ttlRemainingMillis()).isZero();
        assertThat(zaris.expire(prefix + "never-written", Duration.ofSeconds(1))).isFalse();

        // multi-key on hash-tag co-located keys
        Map<String, byte[]> cart = new LinkedHashMap<>();
        cart.put(prefix + "{cart-7}.apples", utf8("3"));
        cart.put(prefix + "{cart-7}.pears", utf8("5"));
        cart.put(prefix + "{cart-7}.plums", utf8("0"));
        Map<String, Long> versions = zaris.putAll(cart, null);
        assertThat(versions).containsOnlyKeys(cart.keySet());
        Map<String, VersionedValue> values = zaris.getAll(List.of(prefix + "{cart-7}.apples",
                prefix + "{cart-7}.pears", prefix + "{cart-7}.absent"));
        assertThat(values).containsOnlyKeys(prefix + "{cart-7}.apples", prefix + "{cart-7}.pears");
        assertThat(text(values.get(prefix + "{cart-7}.pears"))).isEqualTo("5");
        assertThat(zaris.deleteAll(List.of(prefix + "{cart-7}.apples", prefix + "{cart-7}.absent"))).isEqualTo(1);
        Map<String, byte[]> fresh = new LinkedHashMap<>();
        fresh.put(prefix + "{cart-7}.figs", utf8("1"));
        fresh.put(prefix + "{cart-7}.apples", utf8("9"));
        assertThat(zaris.putAllIfAbsent(fresh, null)).as("no key exists: all are written").isTrue();
        fresh.put(prefix + "{cart-7}.kiwis", utf8("4"));
        assertThat(zaris.putAllIfAbsent(fresh, null)).as("figs exists: nothing is written").isFalse();
        assertThat(zaris.getAll(List.of(prefix + "{cart-7}.kiwis"))).isEmpty();
        assertThat(text(zaris.getAll(List.of(prefix + "{cart-7}.apples")).get(prefix + "{cart-7}.apples"))).isEqualTo("9");
        assertThatThrownBy(() -> zaris.getAll(List.of(prefix + "a", prefix + "b", prefix + "c", prefix + "d")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("hash tag");

        // scan sees every key on every owner exactly once
        Set<String> written = new HashSet<>();
        for (int i = 0; i < 500; i++) {
            String key = prefix + "scan-" + i;
            zaris.put(key, utf8(Integer.toString(i)));
            written.add(key);
        }
        Set<String> scanned = zaris.scanKeys();
        assertThat(scanned).containsAll(written);
        assertThat(scanned).contains(prefix + "{cart-7}.pears", prefix + "counter");
    }

    public static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    public static String text(VersionedValue value) {
        return new String(value.value(), StandardCharsets.UTF_8);
    }

    /** The partition of {@code key} in the client's map. */
    public static int partitionOf(ZarisClient client, String key) {
        io.zaris.model.ClusterView view = client.clusterView();
        return view.layout().partitionOf(new io.zaris.placement.SegmentMapper(view.layout().segmentCount()).segmentOf(key));
    }

    /** Moves the partition's active owner to its other assigned node, through the leader. */
    public static void handOver(io.zaris.embedded.EmbeddedCluster cluster, int partition) throws Exception {
        io.zaris.server.ZarisNode leader = cluster.leader();
        io.zaris.model.ClusterView view = leader.currentView();
        String active = view.runtimeMap().get(partition).activeNode();
        String target = view.partitionMap().ownersOf(partition).stream().filter(n -> !n.equals(active)).findFirst()
                .orElseThrow();
        leader.handOver(partition, target).get(10, java.util.concurrent.TimeUnit.SECONDS);
    }

    /** Whether every node of the cluster holds the same view. */
    public static boolean allNodesAgree(io.zaris.embedded.EmbeddedCluster cluster) {
        io.zaris.model.ClusterView first = cluster.nodes().get(0).currentView();
        return cluster.nodes().stream().allMatch(node -> node.currentView().equals(first));
    }
}
