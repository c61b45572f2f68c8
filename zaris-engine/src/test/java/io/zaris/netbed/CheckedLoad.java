package io.zaris.netbed;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.client.ZarisClient;
import java.util.List;
import java.util.Map;

/**
 * The load every partition test runs and the checks every one of them makes: {@link KeyWriters} put chains through
 * a client with default options, and a {@link StaleReadWatch} reading the same keys from every node. At the end: no
 * acknowledged write lost, no stale read, and every exception the application saw, by kind.
 *
 * <p>Driven by one test thread.
 */
final class CheckedLoad {

    /** How long the load runs before the fault, so the fault meets chains in flight. */
    private static final long WARM_UP_MILLIS = 2_000;

    private final KeyWriters writers;
    private final StaleReadWatch watch;

    private CheckedLoad(KeyWriters writers, StaleReadWatch watch) {
        this.writers = writers;
        this.watch = watch;
    }

    /** Starts writing {@code keys} through {@code client} and watching every node of {@code cluster}; warms up. */
    static CheckedLoad start(BedCluster cluster, ZarisClient client, List<String> keys) throws InterruptedException {
        KeyWriters writers = new KeyWriters(client, keys);
        StaleReadWatch watch = new StaleReadWatch(writers, keys, cluster.dataAddressesById(), cluster.credentials());
        writers.start();
        watch.start();
        Thread.sleep(WARM_UP_MILLIS); // the scenario: load before the fault
        return new CheckedLoad(writers, watch);
    }

    KeyWriters writers() {
        return writers;
    }

    /** What the load saw, once it stopped. */
    record Outcome(long acknowledged, long lost, long staleReads, String firstStaleRead, Map<String, Long> servedReads,
                   Map<String, Long> exceptions) {

        /** No acknowledged write lost, no stale read, no exception reached the application. */
        void assertClean() {
            assertThat(lost).as("acknowledged writes lost").isZero();
            assertThat(staleReads).as("stale reads from any node (first: %s)", firstStaleRead).isZero();
            assertThat(exceptions).as("exceptions the application saw").isEmpty();
        }

        @Override
        public String toString() {
            return String.format("%d writes acknowledged, %d lost, %d stale reads%s (reads served by node %s), exceptions %s",
                    acknowledged, lost, staleReads, staleReads == 0 ? "" : " (first: " + firstStaleRead + ")", servedReads,
                    exceptions);
        }
    }

    /** Stops the writers and the watch, then reads every key back through the client. */
    Outcome finish() throws InterruptedException {
        writers.stop();
        watch.close();
        long lost = writers.lostAcknowledgedWrites();
        return new Outcome(writers.acknowledged(), lost, watch.staleReads(), watch.firstStaleRead(), watch.servedReads(),
                writers.exceptions());
    }
}
