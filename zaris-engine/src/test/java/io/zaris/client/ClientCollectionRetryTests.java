package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.model.HashOp;
import io.zaris.model.KvStatus;
import io.zaris.model.SortedSetScores;
import io.zaris.transport.ZarisStatusException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The new collection operations go through the client's one retry brain ({@link RetryPolicy}), against a stub node
 * that answers a scripted status first: a read is repeated after an ownership change, an idempotent write (a
 * conditional ZADD) after an unacknowledged SYNC write, and a write that is not idempotent (SMOVE, LINSERT) is not
 * repeated after one, its failure handed back.
 */
@Tag("unit")
class ClientCollectionRetryTests extends AgainstStubNode {

    @Test
    void aReadIsRepeatedAfterAnOwnershipChange() {
        node.script(StubNode.status(KvStatus.OWNERSHIP_CHANGING));
        node.fallback(StubNodeClient.answer(0, List.of(SortedSetScores.formatBytes(2.5))));

        assertThat(client.sortedSetScores("z", "m").join()).containsExactly(Map.entry("m", 2.5));
        assertThat(stub.hashOps()).containsExactly(HashOp.ZMSCORE, HashOp.ZMSCORE);
    }

    @Test
    void anIdempotentWriteIsRepeatedAfterAnUnacknowledgedAnswer() {
        node.script(StubNode.status(KvStatus.UNACKNOWLEDGED));
        node.fallback(StubNodeClient.written(1));

        assertThat(client.sortedSetAdd("z", Map.of("m", 1.0), SortedSetAddOptions.builder().onlyNew().build()).join())
                .isEqualTo(1);
        assertThat(stub.hashOps()).containsExactly(HashOp.ZADD, HashOp.ZADD);
    }

    @Test
    void aWriteThatIsNotIdempotentIsNotRepeatedAfterAnUnacknowledgedAnswer() {
        node.script(StubNode.status(KvStatus.UNACKNOWLEDGED), StubNode.status(KvStatus.UNACKNOWLEDGED));
        node.fallback(StubNodeClient.written(1));

        assertThatThrownBy(() -> client.setMove("{s}a", "{s}b", "m").join()).cause()
                .isInstanceOfSatisfying(ZarisStatusException.class,
                        e -> assertThat(e.status()).isEqualTo(KvStatus.UNACKNOWLEDGED));
        assertThatThrownBy(() -> client.listInsert("l", InsertPosition.AFTER, new byte[] {1}, new byte[] {2}).join())
                .cause().isInstanceOfSatisfying(ZarisStatusException.class,
                        e -> assertThat(e.status()).isEqualTo(KvStatus.UNACKNOWLEDGED));
        assertThat(stub.hashOps()).containsExactly(HashOp.SMOVE, HashOp.LINSERT);
    }

}
