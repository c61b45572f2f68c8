package io.zaris.chaos;

import io.zaris.model.NodeAddress;
import io.zaris.server.ServerProcesses;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The chaos run's nodes as processes on loopback, all in this machine's network namespace: process faults only. */
final class LoopbackChaosCluster implements ChaosCluster {

    private final ServerProcesses processes;
    private final int nodes;
    private final int replicationFactor;
    private final String[] serverArguments;

    /** @param jvmOptions extra options of every node's JVM, e.g. a test fault's system property; usually none */
    LoopbackChaosCluster(Path logDirectory, int nodes, int replicationFactor, List<String> serverArguments,
                         List<String> jvmOptions) {
        this.processes = new ServerProcesses(logDirectory).withJvmOptions(jvmOptions).withHttpPorts();
        this.nodes = nodes;
        this.replicationFactor = replicationFactor;
        this.serverArguments = serverArguments.toArray(String[]::new);
    }

    @Override
    public List<NodeAddress> start() throws IOException {
        return processes.start(nodes, replicationFactor, serverArguments);
    }

    @Override
    public String password() {
        return null;
    }

    @Override
    public List<ServerProcesses.Node> nodes() {
        return processes.nodes();
    }

    @Override
    public ServerProcesses.Node node(String nodeId) {
        return processes.node(nodeId);
    }

    @Override
    public ServerProcesses.Node restart(String nodeId) throws IOException {
        return processes.restart(nodeId);
    }

    @Override
    public ServerProcesses.AdminRun admin(String... arguments) throws IOException, InterruptedException {
        return processes.admin(arguments);
    }

    @Override
    public URI readinessUri(String nodeId) {
        return URI.create("http://127.0.0.1:" + processes.httpPort(nodeId) + "/health/ready");
    }

    @Override
    public Optional<NetworkFaults> network() {
        return Optional.empty();
    }

    @Override
    public String describe() {
        return nodes + " processes on loopback (no network faults: nothing to cut there)";
    }

    @Override
    public void close() {
        processes.close();
    }
}
