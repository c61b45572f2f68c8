package io.zaris.spring;

import io.zaris.model.NodeAddress;
import java.util.List;
import java.util.Objects;

/**
 * The application's client could not get a cluster map from any of its seeds at start-up: they name no running
 * node, or the nodes refuse this client's login or TLS, or they did not answer within the bootstrap timeout.
 * {@link ZarisClusterUnreachableFailureAnalyzer} turns it into a start-up report naming where the seeds came
 * from and what to check.
 */
public class ZarisClusterUnreachableException extends IllegalStateException {

    private final String seedsSource;
    private final List<NodeAddress> seeds;

    /**
     * @param seedsSource what named the seeds: {@code zaris.client.seeds} or a connection-details bean
     * @param seeds       the seeds the client tried
     * @param cause       the client's failure, whose message lists each seed's last error
     */
    public ZarisClusterUnreachableException(String seedsSource, List<NodeAddress> seeds, RuntimeException cause) {
        super("no Zaris node at " + seeds + " (from " + seedsSource + ") handed this application a cluster map: "
                + cause.getMessage(), cause);
        this.seedsSource = Objects.requireNonNull(seedsSource, "seedsSource must not be null");
        this.seeds = List.copyOf(seeds);
    }

    /** What named the seeds: {@code zaris.client.seeds} or the connection-details bean's class. */
    public String seedsSource() {
        return seedsSource;
    }

    public List<NodeAddress> seeds() {
        return seeds;
    }
}
