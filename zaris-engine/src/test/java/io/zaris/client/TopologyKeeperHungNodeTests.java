package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.model.ClusterView;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.time.TimeSource;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A node that stops answering (hung, or cut off) while the map still names it: the client opens one connection to
 * it and lets it join when it answers, instead of opening another, and waiting for it again, on every map refresh.
 * Each of those waits held the maps thread for {@link TopologyKeeper#INSTALL_CONNECT_WAIT}, and every retry that
 * asked for a refresh (an owner settling its takeover answers OWNERSHIP_CHANGING) waited behind them, seconds
 * after the cluster had moved the hung node's partitions.
 */
@Tag("unit")
class TopologyKeeperHungNodeTests {

    /** Long enough that no HELLO to the hung node gives up while the test runs. */
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(60);

    @Test
    void refreshesWhileAHungNodeIsBeingReconnectedOpenNoSecondConnectionToIt() throws Exception {
        try (StubNode hung = StubNode.start("n1");
             StubNode live = StubNode.start("n2")) {
            ClusterView view = StubNode.view(StubNodeClient.LAYOUT, Map.of("n1", hung.address(), "n2", live.address()),
                    p -> new PartitionRuntime(p % 2 == 0 ? "n1" : "n2", 1, PartitionHealth.HEALTHY));
            hung.serve(view);
            live.serve(view);
            ZarisClientOptions options = ZarisClientOptions.builder().seeds(List.of(live.address()))
                    .environment(Map.of()).connectTimeout(CONNECT_TIMEOUT).mapRefreshDebounce(Duration.ZERO)
                    .mapRefreshInterval(Duration.ofHours(1)).build();
            try (TopologyKeeper keeper = new TopologyKeeper(options, TimeSource.system(), null, takeover -> { })) {
                keeper.bootstrap();
                assertThat(keeper.table().connections()).containsOnlyKeys("n1", "n2");
                assertThat(hung.connectionsAccepted()).isEqualTo(1);

                // The node hangs and its connection resets: the refresh that follows starts a reconnect that
                // its HELLO never answers.
                hung.freeze();
                hung.dropConnections();
                await().atMost(Duration.ofSeconds(30)).until(() -> hung.connectionsAccepted() == 2
                        && !keeper.table().connections().containsKey("n1"));

                // Rides the refresh the lost connection started, if that is still finishing, so each one below is its own.
                keeper.refresh(RefreshTrigger.REACT).get(30, TimeUnit.SECONDS);
                int mapRequestsBefore = live.mapRequests();
                long started = System.nanoTime();
                for (int refresh = 0; refresh < 3; refresh++) {
                    keeper.refresh(RefreshTrigger.REACT).get(30, TimeUnit.SECONDS);
                }
                System.out.printf("three map refreshes while a hung node was being reconnected took %d ms%n",
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));

                assertThat(live.mapRequests() - mapRequestsBefore).as("maps fetched by the three refreshes").isEqualTo(3);
                assertThat(hung.connectionsAccepted())
                        .as("connections the hung node was asked for: the first, and one reconnect still waiting")
                        .isEqualTo(2);
                assertThat(keeper.table().connections()).containsOnlyKeys("n2");
            }
        }
    }
}
