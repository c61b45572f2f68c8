package io.zaris.bench.peers;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A Redis Cluster of 3 masters with one replica each ({@code cluster-node-timeout 5000}, as {@code bench/run} starts
 * it) under a failover run: the application's Lettuce cluster client ({@link LettuceClusterKvClient}: periodic and
 * adaptive topology refresh), and plain single-node Lettuce connections that only ask nodes {@code CLUSTER NODES}
 * and {@code INFO replication}.
 */
final class RedisFailoverTarget implements FailoverTarget {

    /** Command timeout of the observer's connections. */
    private static final Duration OBSERVER_TIMEOUT = Duration.ofSeconds(2);

    private final RedisClusterProcesses cluster;
    private LettuceClusterKvClient client;
    private final RedisClient observer = RedisClient.create();
    /** Observer connections by port; only the thread that asks (one at a time) touches it. */
    private final Map<Integer, StatefulRedisConnection<String, String>> connections = new HashMap<>();
    private boolean closed;

    private RedisFailoverTarget(RedisClusterProcesses cluster) {
        this.cluster = cluster;
    }

    static RedisFailoverTarget start(Path workDirectory) throws IOException, InterruptedException {
        RedisFailoverTarget target = new RedisFailoverTarget(RedisClusterProcesses.start(workDirectory, 1));
        try {
            target.client = new LettuceClusterKvClient(target.cluster.seeds());
        } catch (RuntimeException e) {
            target.close();
            throw e;
        }
        return target;
    }

    @Override
    public String system() {
        return cluster.system();
    }

    @Override
    public String configuration() {
        return "3 masters with 1 replica each (6 processes), cluster-node-timeout 5000 ms, persistence off ("
                + "asynchronous replication); Lettuce " + io.lettuce.core.LettuceVersion.getVersion()
                + " cluster client: periodic (" + LettuceClusterKvClient.TOPOLOGY_REFRESH_PERIOD.toSeconds()
                + " s) and adaptive topology refresh (all triggers, at most one adaptive refresh per "
                + ClusterTopologyRefreshOptions.DEFAULT_ADAPTIVE_REFRESH_TIMEOUT_DURATION.toSeconds() + " s, Lettuce's default), "
                + LettuceClusterKvClient.COMMAND_TIMEOUT.toSeconds()
                + " s command timeout, otherwise Lettuce's defaults (commands issued while disconnected are queued and"
                + " sent on reconnect)";
    }

    @Override
    public KvClient client() {
        return client;
    }

    @Override
    public synchronized Victim chooseVictim(VictimChoice choice) {
        List<Integer> started = cluster.ports();
        List<RedisRedundancy.Node> masters = RedisRedundancy.servingMasters(RedisRedundancy.parseClusterNodes(
                        connection(started.get(0)).sync().clusterNodes()), null).stream()
                .sorted(Comparator.comparingInt(master -> started.indexOf(master.port()))).toList();
        RedisRedundancy.Node victim = switch (choice.kind()) {
            case NON_LEADER -> masters.get(masters.size() - 1);
            case LEADER -> masters.get(0);
            case NUMBER -> {
                if (choice.number() > masters.size()) {
                    throw new IllegalArgumentException("--kill " + choice.number() + ": there are " + masters.size() + " masters");
                }
                yield masters.get(choice.number() - 1);
            }
        };
        return new Victim(victim.port(), victim.hostPort(), "a master (Redis Cluster has no leader)");
    }

    @Override
    public synchronized void kill(Victim victim) throws InterruptedException {
        cluster.kill(victim.handle());
        StatefulRedisConnection<String, String> toVictim = connections.remove(victim.handle());
        if (toVictim != null) {
            toVictim.closeAsync(); // else Lettuce keeps reconnecting to it
        }
    }

    @Override
    public synchronized String redundancyShortfall(Victim killed) {
        String deadHostPort = killed == Victim.NONE ? null : killed.name();
        try {
            int asked = cluster.ports().stream().filter(port -> port != killed.handle()).findFirst().orElseThrow();
            List<RedisRedundancy.Node> masters = RedisRedundancy.servingMasters(
                    RedisRedundancy.parseClusterNodes(connection(asked).sync().clusterNodes()), deadHostPort);
            if (!RedisRedundancy.coverAllSlots(masters)) {
                return "slots without a live master";
            }
            List<String> orphans = new ArrayList<>();
            for (RedisRedundancy.Node master : masters) {
                if (!RedisRedundancy.hasOnlineReplica(connection(master.port()).sync().info("replication"), killed.handle())) {
                    orphans.add(master.hostPort());
                }
            }
            return orphans.isEmpty() ? "" : "master " + String.join(", ", orphans) + " without an online replica";
        } catch (RuntimeException cannotTell) { // a node did not answer, or answered what cannot be read
            return "cannot tell: " + ExceptionKinds.of(cannotTell);
        }
    }

    private StatefulRedisConnection<String, String> connection(int port) {
        return connections.computeIfAbsent(port, p -> observer.connect(RedisURI.builder().withHost("127.0.0.1").withPort(p)
                .withTimeout(OBSERVER_TIMEOUT).build()));
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            connections.values().forEach(StatefulRedisConnection::close);
            observer.shutdown();
            if (client != null) {
                client.close();
            }
        } finally {
            cluster.close();
        }
    }
}
