package io.zaris.server;

import io.zaris.cluster.PeerProbe;
import io.zaris.model.ClusterView;
import io.zaris.model.KvStatus;
import io.zaris.model.NodeAddress;
import io.zaris.protocol.ClusterViewCodec;
import io.zaris.protocol.PartitionState;
import io.zaris.protocol.PeerConnectionName;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import io.zaris.replication.HandOverFence;
import io.zaris.security.Credentials;
import io.zaris.security.TlsOptions;
import io.zaris.time.TimeSource;
import io.zaris.transport.NodeConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * {@link PeerProbe} over the data transport: a short-lived connection per question, each bounded by
 * {@link #TIMEOUT}. "A NodeLeft can race ahead": membership may drop a node whose data port still
 * answers, and the leader asks here before promoting anyone.
 */
final class DataPortProbe implements PeerProbe {

    /** Upper bound for connecting, the handshake and every answer. */
    static final Duration TIMEOUT = Duration.ofSeconds(1);

    private final String nodeId;

    private final Credentials credentials;
    private final TlsOptions tls;
    /** The node's clock: answer deadlines are computed on it and its connections enforce them on it. */
    private final TimeSource time;

    /**
     * @param credentials what the probe logs in with; {@code null} without authentication
     * @param tls         TLS towards peers' data ports; {@code null} for plaintext
     * @param time        the node's clock
     */
    DataPortProbe(String nodeId, Credentials credentials, TlsOptions tls, TimeSource time) {
        this.time = time;
        this.nodeId = nodeId;
        this.credentials = credentials;
        this.tls = tls;
    }

    @Override
    public CompletableFuture<Boolean> isReachable(NodeAddress address) {
        return open(address).handle((connection, error) -> {
            if (connection != null) {
                connection.close();
            }
            return error == null;
        });
    }

    @Override
    public CompletableFuture<Map<Integer, PartitionState>> partitionStates(NodeAddress address, Collection<Integer> partitions) {
        return open(address).thenCompose(connection -> {
            long deadline = time.nanoTime() + TIMEOUT.toNanos();
            List<Integer> asked = new ArrayList<>(partitions);
            List<CompletableFuture<PartitionState>> answers = new ArrayList<>();
            for (int partition : asked) {
                answers.add(connection.send(id -> new Request.PartitionState(id, partition), (status, body) -> {
                    if (status != KvStatus.OK) {
                        throw new IllegalStateException(status + ": " + ResponseCodec.readMessage(body));
                    }
                    return PartitionState.decode(body);
                }, 0, 0, deadline).exceptionally(error -> null));
            }
            return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(ignored -> {
                connection.close();
                Map<Integer, PartitionState> states = new HashMap<>();
                for (int i = 0; i < asked.size(); i++) {
                    PartitionState state = answers.get(i).join();
                    if (state != null) {
                        states.put(asked.get(i), state);
                    }
                }
                return states;
            });
        }).exceptionally(error -> Map.of());
    }

    @Override
    public CompletableFuture<Set<Integer>> fenceForHandOver(NodeAddress address, Map<Integer, Long> epochs) {
        return open(address).thenCompose(connection -> {
            long deadline = time.nanoTime() + HandOverFence.LEADER_WAIT.toNanos();
            List<Integer> asked = new ArrayList<>(epochs.keySet());
            List<CompletableFuture<Boolean>> answers = new ArrayList<>();
            for (int partition : asked) {
                answers.add(connection.send(id -> new Request.HandOverFence(id, partition, epochs.get(partition)),
                        (status, body) -> status == KvStatus.OK, 0, 0, deadline).exceptionally(error -> false));
            }
            return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(ignored -> {
                connection.close();
                Set<Integer> fenced = new TreeSet<>();
                for (int i = 0; i < asked.size(); i++) {
                    if (answers.get(i).join()) {
                        fenced.add(asked.get(i));
                    }
                }
                return (Set<Integer>) fenced;
            });
        }).exceptionally(error -> Set.of());
    }

    @Override
    public CompletableFuture<ClusterView> clusterView(NodeAddress address) {
        return open(address).thenCompose(connection -> connection.send(Request.ClusterMap::new, (status, body) -> {
                    if (status != KvStatus.OK) {
                        throw new IllegalStateException(status + ": " + ResponseCodec.readMessage(body));
                    }
                    return ClusterViewCodec.decode(body);
                }, 0, 0, time.nanoTime() + TIMEOUT.toNanos())
                .whenComplete((view, error) -> connection.close()))
                .exceptionally(error -> null);
    }

    private CompletableFuture<NodeConnection> open(NodeAddress address) {
        return NodeConnection.open(address, PeerConnectionName.of("probe", nodeId), credentials, tls, TIMEOUT, TIMEOUT, 100_000,
                ProtocolLimits.DEFAULT_MAX_FRAME_BYTES, event -> { }, lost -> { }, time);
    }
}
