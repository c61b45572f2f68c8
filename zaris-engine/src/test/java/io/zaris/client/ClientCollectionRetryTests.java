package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.model.HashOp;
import io.zaris.model.KvStatus;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.SortedSetScores;
import io.zaris.placement.PartitionLayout;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import io.zaris.transport.ZarisStatusException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The new collection operations go through the client's one retry brain ({@link RetryPolicy}), against a stub node
 * that answers a scripted status first: a read is repeated after an ownership change, an idempotent write (a
 * conditional ZADD) after an unacknowledged SYNC write, and a write that is not idempotent (SMOVE, LINSERT) is not
 * repeated after one, its failure handed back.
 */
@Tag("unit")
class ClientCollectionRetryTests {

    private StubNode node;
    private ZarisClient client;

    @BeforeEach
    void connect() throws Exception {
        node = StubNode.start("a");
        node.serve(StubNode.view(PartitionLayout.of(64, 8), Map.of("a", node.address()),
                p -> new PartitionRuntime("a", 1, PartitionHealth.HEALTHY)));
        client = ZarisClient.connect(ZarisClientOptions.builder().seeds(List.of(node.address())).environment(Map.of())
                .mapRefreshInterval(Duration.ofHours(1)).retryBackoff(Duration.ofMillis(1)).build());
    }

    @AfterEach
    void close() throws Exception {
        client.close();
        node.close();
    }

    @Test
    void aReadIsRepeatedAfterAnOwnershipChange() {
        node.script(StubNode.status(KvStatus.OWNERSHIP_CHANGING));
        node.fallback(answer(0, List.of(SortedSetScores.formatBytes(2.5))));

        assertThat(client.sortedSetScores("z", "m").join()).containsExactly(Map.entry("m", 2.5));
        assertThat(hashOps()).containsExactly(HashOp.ZMSCORE, HashOp.ZMSCORE);
    }

    @Test
    void anIdempotentWriteIsRepeatedAfterAnUnacknowledgedAnswer() {
        node.script(StubNode.status(KvStatus.UNACKNOWLEDGED));
        node.fallback(written(1));

        assertThat(client.sortedSetAdd("z", Map.of("m", 1.0), SortedSetAddOptions.builder().onlyNew().build()).join())
                .isEqualTo(1);
        assertThat(hashOps()).containsExactly(HashOp.ZADD, HashOp.ZADD);
    }

    @Test
    void aWriteThatIsNotIdempotentIsNotRepeatedAfterAnUnacknowledgedAnswer() {
        node.script(StubNode.status(KvStatus.UNACKNOWLEDGED), StubNode.status(KvStatus.UNACKNOWLEDGED));
        node.fallback(written(1));

        assertThatThrownBy(() -> client.setMove("{s}a", "{s}b", "m").join()).cause()
                .isInstanceOfSatisfying(ZarisStatusException.class,
                        e -> assertThat(e.status()).isEqualTo(KvStatus.UNACKNOWLEDGED));
        assertThatThrownBy(() -> client.listInsert("l", InsertPosition.AFTER, new byte[] {1}, new byte[] {2}).join())
                .cause().isInstanceOfSatisfying(ZarisStatusException.class,
                        e -> assertThat(e.status()).isEqualTo(KvStatus.UNACKNOWLEDGED));
        assertThat(hashOps()).containsExactly(HashOp.SMOVE, HashOp.LINSERT);
    }

    private List<HashOp> hashOps() {
        return node.received().stream().map(received -> ((Request.Hash) received.request()).hashOp()).toList();
    }

    /** A collection read's OK. */
    private static StubNode.Answer answer(long count, List<byte[]> items) {
        return (request, out) -> {
            ResponseCodec.writeHeader(out, request.id(), KvStatus.OK);
            ResponseCodec.writeHashAnswer(out, count, items);
            return true;
        };
    }

    /** A collection write's OK: its answer, the version of its change and a SYNC acknowledgement. */
    private static StubNode.Answer written(long count) {
        return (request, out) -> {
            ResponseCodec.writeHeader(out, request.id(), KvStatus.OK);
            ResponseCodec.writeHashAnswer(out, count, List.of());
            out.writeLong(9);
            ResponseCodec.writeAck(out, 1, true);
            return true;
        };
    }
}
