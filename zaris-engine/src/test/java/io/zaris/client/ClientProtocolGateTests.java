package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.placement.PartitionLayout;
import io.zaris.protocol.OpCode;
import io.zaris.transport.ZarisProtocolVersionException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A client connected to a node that negotiated an older protocol version never sends it a frame or a collection op
 * that version lacks: the operation fails at once with {@link ZarisProtocolVersionException} naming the node, its
 * version and what it lacks, and is not retried; the frames the version has still go out.
 */
@Tag("unit")
class ClientProtocolGateTests {

    private StubNode node;
    private ZarisClient client;

    @BeforeEach
    void connectToAVersion3Node() throws Exception {
        node = StubNode.start("old");
        node.speaks(3);
        node.serve(StubNode.view(PartitionLayout.of(64, 8), Map.of("old", node.address()),
                p -> new PartitionRuntime("old", 1, PartitionHealth.HEALTHY)));
        node.fallback(StubNode.written(7));
        client = ZarisClient.connect(ZarisClientOptions.builder().seeds(List.of(node.address())).environment(Map.of())
                .mapRefreshInterval(Duration.ofHours(1)).directReadConnectionsPerNode(0).build());
    }

    @AfterEach
    void close() throws Exception {
        client.close();
        node.close();
    }

    @Test
    void aCollectionOperationIsNotSentToANodeWhoseVersionLacksIt() {
        assertThatThrownBy(() -> client.listMove("{q}a", "{q}b", ListEnd.HEAD, ListEnd.TAIL).join()).cause()
                .isInstanceOfSatisfying(ZarisProtocolVersionException.class, e -> {
                    assertThat(e.getMessage()).isEqualTo("the node at " + node.address() + " speaks protocol 3, which lacks "
                            + "HASH_WRITE; upgrade it");
                    assertThat(e.nodeVersion()).isEqualTo(3);
                    assertThat(e.operation()).isEqualTo("HASH_WRITE");
                });
        assertThatThrownBy(() -> client.hashSize("h").join()).cause().isInstanceOf(ZarisProtocolVersionException.class)
                .hasMessageContaining("lacks HASH_READ");
        assertThat(node.received()).as("nothing was sent, so nothing was retried").isEmpty();

        assertThat(client.put("k", "v".getBytes(StandardCharsets.UTF_8)).join()).as("a frame of version 3").isEqualTo(7);
        assertThat(node.received()).extracting(received -> received.request().op()).containsExactly(OpCode.PUT);
    }

    /** A blocking list operation's first look is refused so: the wait ends with the refusal instead of lasting its hour. */
    @Test
    void aBlockingListOperationEndsAtItsFirstLookOnANodeWhoseVersionLacksIt() {
        assertThatThrownBy(() -> client.listBlockingPop(List.of("{q}a", "{q}b"), ListEnd.HEAD, Duration.ofHours(1)).join())
                .cause().isInstanceOf(ZarisProtocolVersionException.class).hasMessageContaining("lacks HASH_READ");
        assertThatThrownBy(() -> client.listBlockingMove("{q}a", "{q}b", ListEnd.HEAD, ListEnd.TAIL, Duration.ofHours(1))
                .join()).cause().isInstanceOf(ZarisProtocolVersionException.class);
        assertThatThrownBy(() -> client.sortedSetAdd("z", Map.of("m", 1.0), SortedSetAddOptions.builder().onlyNew().build())
                .join()).cause().isInstanceOf(ZarisProtocolVersionException.class).hasMessageContaining("lacks HASH_WRITE");
        assertThat(node.received()).isEmpty();
    }
}
