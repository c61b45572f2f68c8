package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.model.HashOp;
import io.zaris.model.KvStatus;
import io.zaris.protocol.Request;
import io.zaris.transport.ZarisStatusException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The scans, random picks and pops over several keys against a stub node: bad counts, a missing end or timeout, no keys
 * and keys of different segments refused with a typed exception before anything is sent; what is sent for them; a
 * scan's MATCH applied to the node's answer; and the one retry brain's decisions (a read repeated after an ownership
 * change, LMPOP and ZMPOP not repeated after an unacknowledged answer).
 */
@Tag("unit")
class ClientScansAndSeveralKeyPopsTests extends AgainstStubNode {

    private static final Duration SECOND = Duration.ofSeconds(1);

    @Test
    void popsOverSeveralKeysRefuseBadCountsEndsTimeoutsAndKeysBeforeSending() {
        List<String> keys = List.of("{q}a", "{q}b");
        assertThatThrownBy(() -> client.listPop(keys, ListEnd.HEAD, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("listPop takes a count of 1 or more, not 0");
        assertThatThrownBy(() -> client.listBlockingPop(keys, ListEnd.TAIL, -1, SECOND))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("listBlockingPop takes a count of 1 or more");
        assertThatThrownBy(() -> client.sortedSetPopMin(keys, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sortedSetPopMin takes a count of 1 or more");
        assertThatThrownBy(() -> client.sortedSetPopMax(keys, -3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sortedSetPopMax takes a count of 1 or more");
        assertThatThrownBy(() -> client.sortedSetBlockingPopMin(keys, 0, SECOND)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sortedSetBlockingPopMin takes a count of 1 or more");
        assertThatThrownBy(() -> client.sortedSetBlockingPopMax(keys, 0, SECOND)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sortedSetBlockingPopMax takes a count of 1 or more");

        assertThatThrownBy(() -> client.listPop(keys, null, 1)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> client.listBlockingPop(keys, null, 1, SECOND)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> client.listPop(List.of(), ListEnd.HEAD, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one key");
        assertThatThrownBy(() -> client.sortedSetPopMin(List.of(), 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one key");
        for (Duration timeout : new Duration[] {null, Duration.ZERO, Duration.ofMillis(-1)}) {
            assertThatThrownBy(() -> client.listBlockingPop(keys, ListEnd.HEAD, 2, timeout))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("listBlockingPop takes a positive timeout");
            assertThatThrownBy(() -> client.sortedSetBlockingPopMax(keys, 2, timeout))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("sortedSetBlockingPopMax takes a positive timeout");
        }

        List<String> crossing = List.of("a", StubNodeClient.keyOfAnotherSegmentThan("a"));
        assertThatThrownBy(() -> client.listPop(crossing, ListEnd.HEAD, 1)).isInstanceOf(CrossSegmentKeysException.class)
                .hasMessageContaining("common {hash tag}");
        assertThatThrownBy(() -> client.listBlockingPop(crossing, ListEnd.HEAD, 1, SECOND))
                .isInstanceOf(CrossSegmentKeysException.class);
        assertThatThrownBy(() -> client.sortedSetPopMin(crossing, 1)).isInstanceOf(CrossSegmentKeysException.class);
        assertThatThrownBy(() -> client.sortedSetPopMax(crossing, 1)).isInstanceOf(CrossSegmentKeysException.class);
        assertThatThrownBy(() -> client.sortedSetBlockingPopMin(crossing, 1, SECOND)).isInstanceOf(CrossSegmentKeysException.class);
        assertThatThrownBy(() -> client.sortedSetBlockingPopMax(crossing, 1, SECOND)).isInstanceOf(CrossSegmentKeysException.class);
        assertThat(node.received()).isEmpty();
    }

    @Test
    void randomPicksRefuseMoreThanAMillionRepeatedDrawsBeforeSending() {
        assertThatThrownBy(() -> client.hashRandomFields("h", -1_000_001)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("hashRandomFields takes a count of -1000000 or more, not -1000001");
        assertThatThrownBy(() -> client.hashRandomEntries("h", Integer.MIN_VALUE)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("hashRandomEntries");
        assertThatThrownBy(() -> client.sortedSetRandomMembers("z", -2_000_000)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sortedSetRandomMembers");
        assertThatThrownBy(() -> client.sortedSetRandomMembersWithScores("z", -1_000_001))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sortedSetRandomMembersWithScores");
        assertThat(node.received()).isEmpty();
    }

    @Test
    void randomPicksSendTheirCountAndWhetherValuesComeAlong() {
        node.fallback(StubNodeClient.answer(0, List.of(bytes("f"), bytes("v"), bytes("f"), bytes("v"))));

        assertThat(client.hashRandomEntries("h", -2).join()).hasSize(2).allSatisfy(entry -> {
            assertThat(entry.getKey()).isEqualTo("f");
            assertThat(text(entry.getValue())).isEqualTo("v");
        });
        client.hashRandomFields("h", -1_000_000).join();
        client.sortedSetRandomMembers("z", 3).join();

        List<Request.Hash> sent = stub.hashRequests();
        assertThat(sent).extracting(Request.Hash::hashOp)
                .containsExactly(HashOp.HRANDFIELD, HashOp.HRANDFIELD, HashOp.ZRANDMEMBER);
        assertThat(sent.get(0).args()).extracting(ClientScansAndSeveralKeyPopsTests::text).containsExactly("-2", "1");
        assertThat(sent.get(1).args()).extracting(ClientScansAndSeveralKeyPopsTests::text).containsExactly("-1000000", "0");
        assertThat(sent.get(2).args()).extracting(ClientScansAndSeveralKeyPopsTests::text).containsExactly("3");
    }

    @Test
    void aScanKeepsTheItemsItsPatternMatchesAndIsRepeatedAfterAnOwnershipChange() {
        node.script(StubNode.status(KvStatus.OWNERSHIP_CHANGING));
        node.fallback(StubNodeClient.answer(0, List.of(bytes("user:1"), bytes("a"), bytes("team:1"), bytes("b"), bytes("user:22"), bytes("c"))));

        Map<String, byte[]> users = client.hashScan("h", "user:?").join();

        assertThat(users).containsOnlyKeys("user:1");
        assertThat(client.hashScan("h", null).join()).containsOnlyKeys("user:1", "team:1", "user:22");
        assertThat(client.hashScan("h", "[tu]*:[0-9]*").join().keySet()).containsExactly("user:1", "team:1", "user:22");
        assertThat(stub.hashRequests()).extracting(Request.Hash::hashOp)
                .containsExactly(HashOp.HGETALL, HashOp.HGETALL, HashOp.HGETALL, HashOp.HGETALL);
    }

    @Test
    void popsOverSeveralKeysAreNotRepeatedAfterAnUnacknowledgedAnswer() {
        node.script(StubNode.status(KvStatus.UNACKNOWLEDGED), StubNode.status(KvStatus.UNACKNOWLEDGED));

        assertThatThrownBy(() -> client.listPop(List.of("{q}a", "{q}b"), ListEnd.TAIL, 2).join()).cause()
                .isInstanceOfSatisfying(ZarisStatusException.class,
                        e -> assertThat(e.status()).isEqualTo(KvStatus.UNACKNOWLEDGED));
        assertThatThrownBy(() -> client.sortedSetPopMax(List.of("{q}z", "{q}y"), 3).join()).cause()
                .isInstanceOfSatisfying(ZarisStatusException.class,
                        e -> assertThat(e.status()).isEqualTo(KvStatus.UNACKNOWLEDGED));

        List<Request.Hash> sent = stub.hashRequests();
        assertThat(sent).extracting(Request.Hash::hashOp).containsExactly(HashOp.LMPOP, HashOp.ZMPOP);
        assertThat(text(sent.get(0).key())).isEqualTo("{q}a");
        assertThat(sent.get(0).args()).extracting(ClientScansAndSeveralKeyPopsTests::text).containsExactly("RIGHT", "2", "{q}b");
        assertThat(text(sent.get(1).key())).isEqualTo("{q}z");
        assertThat(sent.get(1).args()).extracting(ClientScansAndSeveralKeyPopsTests::text).containsExactly("1", "3", "{q}y");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] value) {
        return new String(value, StandardCharsets.UTF_8);
    }
}
