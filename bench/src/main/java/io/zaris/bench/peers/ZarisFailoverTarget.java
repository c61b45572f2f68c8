package io.zaris.bench.peers;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.model.ClusterView;
import io.zaris.transport.ZarisException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Zaris under a failover run: three server processes with every server option at its default but the ack mode
 * ({@link ZarisServerCluster#startWithServerDefaults}), the application's native client with default options, and
 * a second client, also with default options, that only reads the cluster map (its refreshes never touch the
 * application client's routing).
 */
final class ZarisFailoverTarget implements FailoverTarget {

    /** How long the clients may take to connect while the nodes start; each attempt uses the default bootstrap timeout. */
    private static final Duration CONNECT_LIMIT = Duration.ofSeconds(120);
    /** How long one look at the cluster map may take. */
    private static final Duration MAP_WAIT = Duration.ofSeconds(5);
    /** How long looks at the map may go on to choose the victim (a busy machine may need more than one). */
    private static final Duration VICTIM_MAP_LIMIT = Duration.ofSeconds(30);

    private final ZarisServerCluster cluster;
    private ZarisKvClient client;
    private ZarisClient observer;
    private boolean closed;

    private ZarisFailoverTarget(ZarisServerCluster cluster) {
        this.cluster = cluster;
    }

    static ZarisFailoverTarget start(String ackMode, ZarisServerCluster.Heap heap, Path serverJar, Path logDirectory)
            throws IOException, InterruptedException {
        ZarisFailoverTarget target = new ZarisFailoverTarget(
                ZarisServerCluster.startWithServerDefaults(ackMode, heap, serverJar, logDirectory));
        try {
            target.connect();
        } catch (RuntimeException | InterruptedException e) {
            target.close();
            throw e;
        }
        return target;
    }

    private synchronized void connect() throws InterruptedException {
        client = new ZarisKvClient(connectWithDefaults());
        observer = connectWithDefaults();
    }

    /** A client with the default options, retried (whole bootstraps) while the cluster is still forming. */
    private ZarisClient connectWithDefaults() throws InterruptedException {
        long deadline = System.nanoTime() + CONNECT_LIMIT.toNanos();
        while (true) {
            try {
                return ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.dataAddresses()).build());
            } catch (ZarisException notYet) {
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
                Thread.sleep(500);
            }
        }
    }

    @Override
    public String system() {
        return cluster.system();
    }

    /** The options are read off the connected client, so that the report shows what the environment made of them. */
    @Override
    public String configuration() {
        ZarisClientOptions options = observer.options();
        return cluster.configuration() + "; the native client with default options (puts acknowledged as the servers'"
                + " ack mode says, at most " + options.maxAttempts() + " attempts of at most "
                + options.attemptTimeout().toSeconds() + " s each, request deadline " + options.requestTimeout()
                + ", map refresh wait " + options.mapRefreshWait().toSeconds() + " s)";
    }

    @Override
    public KvClient client() {
        return client;
    }

    @Override
    public Victim chooseVictim(VictimChoice choice) throws InterruptedException {
        String leader = viewWithin(VICTIM_MAP_LIMIT).leader();
        int nodes = cluster.nodeCount();
        int index = switch (choice.kind()) {
            case NON_LEADER -> {
                int last = nodes - 1;
                while (ZarisServerCluster.nodeId(last).equals(leader)) {
                    last--;
                }
                yield last;
            }
            case LEADER -> {
                if (leader == null) {
                    throw new IllegalStateException("the cluster map names no leader");
                }
                yield Integer.parseInt(leader.substring(1)) - 1;
            }
            case NUMBER -> {
                if (choice.number() > nodes) {
                    throw new IllegalArgumentException("--kill " + choice.number() + ": there are " + nodes + " nodes");
                }
                yield choice.number() - 1;
            }
        };
        String id = ZarisServerCluster.nodeId(index);
        String role = id.equals(leader) ? "the leader"
                : "not the leader (" + (leader == null ? "none known" : leader + " leads") + ")";
        return new Victim(index, id, role);
    }

    @Override
    public void kill(Victim victim) throws InterruptedException {
        cluster.kill(victim.handle());
    }

    @Override
    public String redundancyShortfall(Victim killed) throws InterruptedException {
        try {
            ClusterView view = view();
            int partitionsShort = ZarisRedundancy.partitionsShort(view, killed == Victim.NONE ? null : killed.name());
            return partitionsShort == 0 ? "" : partitionsShort + " of " + view.layout().partitionCount() + " partitions short";
        } catch (RuntimeException cannotTell) { // no map in time, or the observer could not ask
            return "cannot tell: " + ExceptionKinds.of(cannotTell);
        }
    }

    private ClusterView viewWithin(Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            try {
                return view();
            } catch (RuntimeException notYet) {
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
            }
        }
    }

    /** The cluster map as a node hands it out now, through the observer. */
    private ClusterView view() throws InterruptedException {
        try {
            return observer.refreshMap().get(MAP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("no cluster map within " + MAP_WAIT, e);
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (observer != null) {
                observer.close();
            }
            if (client != null) {
                client.close();
            }
        } finally {
            cluster.close();
        }
    }
}
