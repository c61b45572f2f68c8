package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.transport.ZarisWrongTypeException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The native client's scans (HSCAN, SSCAN, ZSCAN with MATCH), random picks (HRANDFIELD, ZRANDMEMBER) and pops over
 * several keys (LMPOP, ZMPOP and their blocking forms BLMPOP, BZMPOP) against one real three-node cluster keeping two
 * copies, each test on keys of its own: answered as the RESP commands are, refused with typed errors; and the same
 * operations through the blocking view {@code sync()}.
 */
@Tag("in-process-cluster")
class ClientScansAndSeveralKeyPopsIntegrationTests extends AgainstThreeNodeCluster {

    @Test
    void scansAnswerTheMatchingItemsOfAHashASetAndASortedSet() {
        Map<String, byte[]> fields = new LinkedHashMap<>();
        fields.put("user:1", bytes("ada"));
        fields.put("team:1", bytes("core"));
        fields.put("user:22", bytes("bob"));
        client.hashSet("scan:h", fields).join();
        assertThat(client.hashScan("scan:h", "user:*").join()).containsOnlyKeys("user:1", "user:22")
                .hasEntrySatisfying("user:22", value -> assertThat(text(value)).isEqualTo("bob"));
        assertThat(client.hashScan("scan:h", null).join().keySet()).containsExactly("user:1", "team:1", "user:22");
        assertThat(client.hashScan("scan:h", "nobody*").join()).isEmpty();
        assertThat(client.hashScan("scan:absent", "*").join()).isEmpty();

        client.setAdd("scan:s", "red", "green", "blue", "grey").join();
        assertThat(client.setScan("scan:s", "gr*").join()).containsExactlyInAnyOrder("green", "grey");
        assertThat(client.setScan("scan:s", "?e?").join()).containsExactly("red");
        assertThat(client.setScan("scan:s", null).join()).hasSize(4);

        client.sortedSetAdd("scan:z", Map.of("a1", 3.0, "b1", 1.0, "a2", 2.0)).join();
        assertThat(client.sortedSetScan("scan:z", "a*").join())
                .containsExactly(new ScoredMember("a2", 2.0), new ScoredMember("a1", 3.0));
        assertThat(client.sortedSetScan("scan:z", null).join()).extracting(ScoredMember::member).containsExactly("b1", "a2", "a1");

        client.put("scan:plain", bytes("v")).join();
        for (CompletableFuture<?> operation : List.of(client.hashScan("scan:plain", "*"), client.setScan("scan:plain", "*"),
                client.sortedSetScan("scan:plain", "*"), client.setScan("scan:h", null))) {
            assertThatThrownBy(operation::join).cause().isInstanceOf(ZarisWrongTypeException.class);
        }
    }

    @Test
    void randomPicksFollowRedisCountRule() {
        client.hashSet("pick:h", Map.of("a", bytes("1"), "b", bytes("2"), "c", bytes("3"))).join();
        List<String> two = client.hashRandomFields("pick:h", 2).join();
        assertThat(two).hasSize(2).doesNotHaveDuplicates().isSubsetOf("a", "b", "c");
        assertThat(client.hashRandomFields("pick:h", 10).join()).as("more than there are: each once")
                .containsExactlyInAnyOrder("a", "b", "c");
        assertThat(client.hashRandomFields("pick:h", -7).join()).as("negative: exactly that many, repeats allowed")
                .hasSize(7).isSubsetOf("a", "b", "c");
        assertThat(client.hashRandomFields("pick:h", 0).join()).isEmpty();
        List<Map.Entry<String, byte[]>> entries = client.hashRandomEntries("pick:h", -5).join();
        assertThat(entries).hasSize(5).allSatisfy(entry ->
                assertThat(text(entry.getValue())).isEqualTo(Map.of("a", "1", "b", "2", "c", "3").get(entry.getKey())));
        assertThat(client.hashRandomFields("pick:absent", 3).join()).isEmpty();
        assertThat(client.hashRandomEntries("pick:absent", -3).join()).isEmpty();

        client.sortedSetAdd("pick:z", Map.of("x", 1.5, "y", 2.5)).join();
        assertThat(client.sortedSetRandomMembers("pick:z", 5).join()).containsExactlyInAnyOrder("x", "y");
        assertThat(client.sortedSetRandomMembers("pick:z", -4).join()).hasSize(4).isSubsetOf("x", "y");
        assertThat(client.sortedSetRandomMembersWithScores("pick:z", -3).join()).hasSize(3)
                .isSubsetOf(new ScoredMember("x", 1.5), new ScoredMember("y", 2.5));
        assertThat(client.sortedSetRandomMembersWithScores("pick:z", 1).join()).hasSize(1);
        assertThat(client.sortedSetRandomMembers("pick:absent", 2).join()).isEmpty();

        client.put("pick:plain", bytes("v")).join();
        for (CompletableFuture<?> operation : List.of(client.hashRandomFields("pick:plain", 1),
                client.sortedSetRandomMembers("pick:plain", 1), client.hashRandomEntries("pick:z", 1),
                client.sortedSetRandomMembersWithScores("pick:h", 1))) {
            assertThatThrownBy(operation::join).cause().isInstanceOf(ZarisWrongTypeException.class);
        }
    }

    @Test
    void listPopsOverSeveralKeysTakeFromTheFirstKeyHoldingAList() {
        List<String> keys = List.of("{lm}a", "{lm}b", "{lm}c");
        assertThat(client.listPop(keys, ListEnd.HEAD, 2).join()).as("no key holds a list").isNull();
        client.listPush("{lm}b", ListEnd.TAIL, bytes("b1"), bytes("b2"), bytes("b3")).join();
        client.listPush("{lm}c", ListEnd.TAIL, bytes("c1")).join();

        PoppedElements head = client.listPop(keys, ListEnd.HEAD, 2).join();
        assertThat(head.key()).isEqualTo("{lm}b");
        assertThat(head.elements()).extracting(ClientScansAndSeveralKeyPopsIntegrationTests::text).containsExactly("b1", "b2");
        PoppedElements tail = client.listPop(keys, ListEnd.TAIL, 10).join();
        assertThat(tail.key()).isEqualTo("{lm}b");
        assertThat(tail.elements()).extracting(ClientScansAndSeveralKeyPopsIntegrationTests::text).containsExactly("b3");
        assertThat(client.listLength("{lm}b").join()).as("the list left with its last element").isZero();
        PoppedElements next = client.listPop(keys, ListEnd.TAIL, 1).join();
        assertThat(next.key()).isEqualTo("{lm}c");
        assertThat(next.elements()).extracting(ClientScansAndSeveralKeyPopsIntegrationTests::text).containsExactly("c1");

        assertThat(client.listBlockingPop(keys, ListEnd.HEAD, 3, Duration.ofMillis(300)).join()).isNull();
        CompletableFuture<PoppedElements> waiting = client.listBlockingPop(keys, ListEnd.HEAD, 3, Duration.ofSeconds(30));
        client.listPush("{lm}c", ListEnd.TAIL, bytes("w1"), bytes("w2")).join();
        PoppedElements waited = waiting.join();
        assertThat(waited.key()).isEqualTo("{lm}c");
        assertThat(waited.elements()).extracting(ClientScansAndSeveralKeyPopsIntegrationTests::text).containsExactly("w1", "w2");

        client.put("{lm}plain", bytes("v")).join();
        client.listPush("{lm}d", ListEnd.TAIL, bytes("d1")).join();
        assertThatThrownBy(() -> client.listPop(List.of("{lm}plain", "{lm}d"), ListEnd.HEAD, 1).join())
                .as("a key of another type before the first list").cause().isInstanceOf(ZarisWrongTypeException.class);
        assertThat(client.listPop(List.of("{lm}d", "{lm}plain"), ListEnd.HEAD, 1).join().key())
                .as("keys after the first list are not looked at, as in Redis").isEqualTo("{lm}d");
        assertThatThrownBy(() -> client.listBlockingPop(List.of("{lm}plain"), ListEnd.HEAD, 1, Duration.ofSeconds(5)).join())
                .cause().isInstanceOf(ZarisWrongTypeException.class);
    }

    @Test
    void sortedSetPopsOverSeveralKeysTakeFromTheFirstKeyHoldingASortedSet() {
        List<String> keys = List.of("{zm}a", "{zm}b");
        assertThat(client.sortedSetPopMin(keys, 1).join()).isNull();
        client.sortedSetAdd("{zm}b", Map.of("one", 1.0, "two", 2.0, "three", 3.0, "four", 4.0)).join();

        assertThat(client.sortedSetPopMin(keys, 2).join()).isEqualTo(new PoppedMembers("{zm}b",
                List.of(new ScoredMember("one", 1.0), new ScoredMember("two", 2.0))));
        assertThat(client.sortedSetPopMax(keys, 1).join())
                .isEqualTo(new PoppedMembers("{zm}b", List.of(new ScoredMember("four", 4.0))));
        assertThat(client.sortedSetPopMax(keys, 5).join())
                .isEqualTo(new PoppedMembers("{zm}b", List.of(new ScoredMember("three", 3.0))));
        assertThat(client.sortedSetSize("{zm}b").join()).isZero();

        assertThat(client.sortedSetBlockingPopMin(keys, 2, Duration.ofMillis(300)).join()).isNull();
        CompletableFuture<PoppedMembers> waiting = client.sortedSetBlockingPopMax(keys, 2, Duration.ofSeconds(30));
        client.sortedSetAdd("{zm}a", Map.of("x", 10.0, "y", 20.0, "z", 30.0)).join();
        assertThat(waiting.join()).isEqualTo(new PoppedMembers("{zm}a",
                List.of(new ScoredMember("z", 30.0), new ScoredMember("y", 20.0))));
        assertThat(client.sortedSetBlockingPopMin(keys, 5, Duration.ofSeconds(5)).join())
                .isEqualTo(new PoppedMembers("{zm}a", List.of(new ScoredMember("x", 10.0))));

        client.setAdd("{zm}set", "m").join();
        assertThatThrownBy(() -> client.sortedSetPopMin(List.of("{zm}set", "{zm}a"), 1).join())
                .cause().isInstanceOf(ZarisWrongTypeException.class);
        assertThatThrownBy(() -> client.sortedSetBlockingPopMax(List.of("{zm}set"), 1, Duration.ofSeconds(5)).join())
                .cause().isInstanceOf(ZarisWrongTypeException.class);
        assertThat(client.setMembers("{zm}set").join()).isEqualTo(Set.of("m"));
    }

    @Test
    void theBlockingViewAnswersWhatTheFuturesCompleteWithAndThrowsUnwrapped() {
        BlockingZarisClient sync = client.sync();
        sync.hashSet("sync:h", Map.of("user:1", bytes("ada"), "team:1", bytes("core")));
        assertThat(sync.hashScan("sync:h", "user:*")).containsOnlyKeys("user:1");
        assertThat(sync.hashRandomFields("sync:h", -3)).hasSize(3).isSubsetOf("user:1", "team:1");
        assertThat(sync.hashRandomEntries("sync:h", 5)).extracting(Map.Entry::getKey)
                .containsExactlyInAnyOrder("user:1", "team:1");
        sync.setAdd("sync:s", "red", "green");
        assertThat(sync.setScan("sync:s", "r*")).containsExactly("red");
        sync.sortedSetAdd("{sy}z", Map.of("a", 1.0, "b", 2.0, "c", 3.0));
        assertThat(sync.sortedSetScan("{sy}z", "[ab]")).containsExactly(new ScoredMember("a", 1.0), new ScoredMember("b", 2.0));
        assertThat(sync.sortedSetRandomMembers("{sy}z", 3)).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(sync.sortedSetRandomMembersWithScores("{sy}z", -1)).hasSize(1);
        assertThat(sync.sortedSetPopMin(List.of("{sy}none", "{sy}z"), 1))
                .isEqualTo(new PoppedMembers("{sy}z", List.of(new ScoredMember("a", 1.0))));
        assertThat(sync.sortedSetPopMax(List.of("{sy}z"), 1))
                .isEqualTo(new PoppedMembers("{sy}z", List.of(new ScoredMember("c", 3.0))));
        assertThat(sync.sortedSetBlockingPopMin(List.of("{sy}z"), 4, Duration.ofSeconds(5)))
                .isEqualTo(new PoppedMembers("{sy}z", List.of(new ScoredMember("b", 2.0))));
        assertThat(sync.sortedSetBlockingPopMax(List.of("{sy}z"), 4, Duration.ofMillis(200))).isNull();

        sync.listPush("{sy}l", ListEnd.TAIL, bytes("1"), bytes("2"), bytes("3"));
        assertThat(sync.listPop(List.of("{sy}l"), ListEnd.HEAD, 2).elements())
                .extracting(ClientScansAndSeveralKeyPopsIntegrationTests::text).containsExactly("1", "2");
        assertThat(sync.listBlockingPop(List.of("{sy}none", "{sy}l"), ListEnd.HEAD, 2, Duration.ofSeconds(5)).elements())
                .extracting(ClientScansAndSeveralKeyPopsIntegrationTests::text).containsExactly("3");
        assertThat(sync.listPop(List.of("{sy}l"), ListEnd.HEAD, 1)).isNull();
        assertThat(sync.listBlockingPop(List.of("{sy}l"), ListEnd.HEAD, 1, Duration.ofMillis(200))).isNull();

        sync.put("{sy}plain", bytes("v"));
        assertThatThrownBy(() -> sync.listPop(List.of("{sy}plain"), ListEnd.HEAD, 1)).isInstanceOf(ZarisWrongTypeException.class);
        assertThatThrownBy(() -> sync.hashScan("{sy}plain", null)).isInstanceOf(ZarisWrongTypeException.class);
        assertThatThrownBy(() -> sync.sortedSetPopMin(List.of("{sy}z"), 0)).isInstanceOf(IllegalArgumentException.class);
    }

    static String text(byte[] value) {
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
