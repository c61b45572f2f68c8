package io.zaris.chaos;

import io.zaris.transport.NodeConnection;
import io.zaris.client.ZarisClient;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.KvStatus;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import io.zaris.model.SegmentDigest;
import io.zaris.protocol.SegmentDigestCodec;
import io.zaris.security.Credentials;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Fetches every owner's segment digests of every partition from the running nodes, one short-lived connection
 * per node asking {@code SEGMENT_DIGESTS} for each partition the node owns.
 *
 * <p>Under ASYNC a replica may trail its active by the changes still in flight when the workload stopped, so
 * {@link #awaitConverged} fetches again until the copies agree or a deadline passes, and hands back the last
 * fetch either way: the checker, not this class, decides. Used by the run's main thread only.
 */
final class ReplicaDigests {

    /** How long one node may take to connect and answer every partition it owns. */
    static final Duration NODE_TIMEOUT = Duration.ofSeconds(10);
    /** Pause between two fetches while copies still differ; the replicas' own progress is what is awaited. */
    private static final long POLL_MILLIS = 500;

    private ReplicaDigests() {
    }

    /**
     * Fetches until every copy equals its active's ({@link ReplicaCheck#converged}) or {@code patience} has
     * passed; returns the last fetch.
     */
    static ReplicaCopies awaitConverged(ZarisClient control, String password, Duration patience) throws InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        while (true) {
            ReplicaCopies copies = fetch(control.refreshMap().join(), password);
            if (ReplicaCheck.converged(copies) || System.nanoTime() - deadline > 0) {
                return copies;
            }
            TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
        }
    }

    /** One fetch of every owner's copy of every partition the map names. */
    static ReplicaCopies fetch(ClusterView view, String password) {
        int partitions = view.layout().partitionCount();
        Map<String, List<Integer>> ownedBy = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            for (String owner : view.partitionMap().ownersOf(p)) {
                ownedBy.computeIfAbsent(owner, node -> new ArrayList<>()).add(p);
            }
        }
        Map<String, CompletableFuture<Map<Integer, List<SegmentDigest>>>> answers = new HashMap<>();
        ownedBy.forEach((node, owned) -> {
            NodeAddress address = view.addresses().get(node);
            answers.put(node, address == null ? CompletableFuture.completedFuture(Map.of())
                    : digestsOf(address, owned, password == null ? null : Credentials.password(password)));
        });
        List<ReplicaCopies.PartitionCopies> result = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            Map<String, List<SegmentDigest>> byNode = new HashMap<>();
            for (String owner : view.partitionMap().ownersOf(p)) {
                List<SegmentDigest> digests = answers.get(owner).join().get(p);
                if (digests != null) {
                    byNode.put(owner, digests);
                }
            }
            result.add(new ReplicaCopies.PartitionCopies(p, view.runtimeMap().get(p).activeNode(),
                    view.partitionMap().ownersOf(p), byNode));
        }
        return new ReplicaCopies(result);
    }

    /** One node's digests of the given partitions; a partition it did not answer for is left out. */
    private static CompletableFuture<Map<Integer, List<SegmentDigest>>> digestsOf(NodeAddress address,
                                                                                   List<Integer> partitions,
                                                                                   Credentials credentials) {
        return NodeConnection.open(address, "chaos-replica-digests", credentials, NODE_TIMEOUT, NODE_TIMEOUT,
                partitions.size(), ProtocolLimits.DEFAULT_MAX_FRAME_BYTES, event -> { }, lost -> { })
                .thenCompose(connection -> {
                    long answerDeadline = System.nanoTime() + NODE_TIMEOUT.toNanos();
                    List<CompletableFuture<List<SegmentDigest>>> asked = new ArrayList<>();
                    for (int partition : partitions) {
                        asked.add(connection.send(id -> new Request.SegmentDigests(id, partition), (status, body) -> {
                            if (status != KvStatus.OK) {
                                throw new IllegalStateException(status + ": " + ResponseCodec.readMessage(body));
                            }
                            return SegmentDigestCodec.decodeAll(body);
                        }, 0, 0, answerDeadline).exceptionally(error -> null));
                    }
                    return CompletableFuture.allOf(asked.toArray(CompletableFuture[]::new)).thenApply(done -> {
                        connection.close();
                        Map<Integer, List<SegmentDigest>> byPartition = new HashMap<>();
                        for (int i = 0; i < partitions.size(); i++) {
                            List<SegmentDigest> digests = asked.get(i).join();
                            if (digests != null) {
                                byPartition.put(partitions.get(i), digests);
                            }
                        }
                        return byPartition;
                    });
                })
                .exceptionally(error -> Map.of());
    }
}
