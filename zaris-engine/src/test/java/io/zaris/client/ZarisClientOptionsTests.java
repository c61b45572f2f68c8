package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.time.FakeTime;
import io.zaris.time.TimeSource;
import io.zaris.transport.ZarisTransportException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Connections per node: the default, the bounds, and a group that cannot open every member; the time source. */
@Tag("unit")
class ZarisClientOptionsTests {

    @Test
    void connectionsPerNodeDefaultsToOne() {
        assertThat(builder().build().connectionsPerNode()).isEqualTo(ZarisClientOptions.DEFAULT_CONNECTIONS_PER_NODE)
                .isEqualTo(1);
    }

    @Test
    void connectionsPerNodeAcceptsOneToTheMaximum() {
        assertThat(builder().connectionsPerNode(1).build().connectionsPerNode()).isEqualTo(1);
        assertThat(builder().connectionsPerNode(ZarisClientOptions.MAX_CONNECTIONS_PER_NODE).build().connectionsPerNode())
                .isEqualTo(ZarisClientOptions.MAX_CONNECTIONS_PER_NODE);
    }

    @Test
    void connectionsPerNodeRefusesZeroAndMoreThanTheMaximum() {
        assertThatThrownBy(() -> builder().connectionsPerNode(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("connectionsPerNode").hasMessageContaining("0");
        assertThatThrownBy(() -> builder().connectionsPerNode(ZarisClientOptions.MAX_CONNECTIONS_PER_NODE + 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theTimeSourceDefaultsToTheSystemClockAndRefusesNull() {
        assertThat(builder().build().timeSource()).isSameAs(TimeSource.system());
        FakeTime fake = new FakeTime();
        assertThat(builder().timeSource(fake).build().timeSource()).isSameAs(fake);
        assertThatThrownBy(() -> builder().timeSource(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("timeSource");
    }

    @Test
    void aGroupFailsWhenOneOfItsConnectionsCannotBeOpened() {
        AtomicInteger attempts = new AtomicInteger();
        CompletableFuture<StripedNodeConnections> group = StripedNodeConnections.open(3, () -> {
            attempts.incrementAndGet();
            return CompletableFuture.failedFuture(new ZarisTransportException("refused"));
        });
        assertThat(attempts).hasValue(3);
        assertThatThrownBy(group::join).isInstanceOf(CompletionException.class).hasRootCauseMessage("refused");
    }

    private static ZarisClientOptions.Builder builder() {
        return ZarisClientOptions.builder().seeds("127.0.0.1:7000").environment(Map.of());
    }
}
