package io.zaris.chaos;

import io.zaris.model.NodeAddress;
import io.zaris.server.ServerProcesses;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Optional;

/**
 * The server processes a chaos run drives, wherever they run: on loopback ({@link LoopbackChaosCluster}) or one per
 * host of a network test bed ({@link BedChaosCluster}). The nemesis reaches every process fault through this, and
 * the network faults through {@link #network()}, which only the bed has.
 *
 * <p>Owned by the run's main thread, which starts and closes it; the nemesis thread kills, signals and restarts
 * nodes through it while the run lasts, one call at a time.
 */
interface ChaosCluster extends AutoCloseable {

    /** Starts every node and waits until each has started; returns the data addresses clients connect to. */
    List<NodeAddress> start() throws IOException, InterruptedException;

    /** The password clients log in with; {@code null} when the nodes take none (loopback). */
    String password();

    List<ServerProcesses.Node> nodes();

    ServerProcesses.Node node(String nodeId);

    /** Starts a node that exited again, with its original command line, appending to its log. */
    ServerProcesses.Node restart(String nodeId) throws IOException;

    /** Runs the server jar's {@code admin} subcommand with these arguments (credentials added as needed). */
    ServerProcesses.AdminRun admin(String... arguments) throws IOException, InterruptedException;

    /**
     * Where the node's readiness probe answers ({@code /health/ready} on its HTTP port): 200 once it serves its part of
     * the map with every replica synced. The nemesis reads it to know whether a partition is fully redundant again.
     */
    URI readinessUri(String nodeId);

    /** The network faults the nodes can be put under; empty on loopback, where there is no network to cut. */
    Optional<NetworkFaults> network();

    /** One line for the report: where the nodes run and which network faults could and could not be injected. */
    String describe();

    @Override
    void close();
}
