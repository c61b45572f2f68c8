package io.zaris.chaos;

import io.zaris.client.ZarisClient;
import io.zaris.cluster.ClusterView;
import io.zaris.placement.SegmentMapper;
import io.zaris.server.ServerProcesses;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Injects real faults into server processes at random (seeded) intervals: {@code kill -9} (restarted later),
 * {@code SIGSTOP} longer than the escalation timeout (then {@code SIGCONT}), killing the current leader,
 * killing the owner of a hot partition, a graceful stop/restart, and a drain (the admin command: the node's
 * partitions move to the others) followed by a stop and a restart, after which the node joins again as a new
 * member and a rebalance moves partitions back to it. Never more impaired nodes at once than
 * {@link ChaosOptions#maxSimultaneousFaults()}.
 *
 * <p>Runs on its own thread as a small event loop: every tick it performs the recoveries that are due and,
 * when the next fault's time has come, injects it. {@link #heal()} performs every pending recovery now.
 */
final class Nemesis {

    private static final Logger log = LoggerFactory.getLogger(Nemesis.class);
    private static final Pattern VIEW = Pattern.compile("membership view \\[([^|\\]]+)\\|");

    enum Kind { KILL, PAUSE, KILL_LEADER, KILL_HOT_OWNER, GRACEFUL_RESTART, DRAIN_AND_REJOIN }

    /** A drain that has not finished by then is cut short: the node is stopped anyway (its rest fails over). */
    private static final long DRAIN_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(120);

    /** One injected fault: what, on which node, when it started and when it was undone. */
    record Fault(Kind kind, String node, long startNanos, long endNanos) {
    }

    private record Recovery(long dueNanos, String node, Kind kind, long startNanos) {
    }

    private final ServerProcesses processes;
    private final ZarisClient client;
    private final ChaosOptions options;
    private final Random random;
    private final List<Recovery> pending = new ArrayList<>();
    /** Restarted or resumed nodes that still count as failed until every partition is HEALTHY again. */
    private final java.util.Set<String> awaitingHealth = new java.util.HashSet<>();
    private final List<Fault> faults = new ArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private Thread thread;

    Nemesis(ServerProcesses processes, ZarisClient client, ChaosOptions options) {
        this.processes = processes;
        this.client = client;
        this.options = options;
        this.random = new Random(options.seed() ^ 0x5EED);
    }

    void start() {
        thread = new Thread(this::loop, "chaos-nemesis");
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops injecting, then undoes every fault still in effect. */
    synchronized List<Fault> heal() throws InterruptedException, IOException {
        running.set(false);
        thread.join(60_000);
        while (!pending.isEmpty()) {
            Recovery recovery = pending.remove(0);
            recover(recovery, true);
        }
        return List.copyOf(faults);
    }

    private void loop() {
        long nextFault = System.nanoTime() + delayNanos(4, 8);
        while (running.get()) {
            try {
                long now = System.nanoTime();
                synchronized (this) {
                    for (Iterator<Recovery> it = List.copyOf(pending).iterator(); it.hasNext(); ) {
                        Recovery recovery = it.next();
                        if (now - recovery.dueNanos() >= 0) {
                            pending.remove(recovery);
                            recover(recovery, false);
                        }
                    }
                    if (!awaitingHealth.isEmpty() && recoveredNodesRejoined() && allHealthy()) {
                        awaitingHealth.clear();
                    }
                    if (now - nextFault >= 0) {
                        if (pending.size() + awaitingHealth.size() < options.maxSimultaneousFaults()) {
                            inject(Kind.values()[random.nextInt(Kind.values().length)]);
                        }
                        nextFault = now + delayNanos(5, 12);
                    }
                }
                Thread.sleep(200); // pacing of the nemesis' own schedule, not a synchronisation
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (IOException | RuntimeException e) {
                log.warn("nemesis step failed: {}", e.toString());
            }
        }
    }

    private void inject(Kind kind) throws IOException, InterruptedException {
        String node = target(kind);
        if (node == null || pending.stream().anyMatch(r -> r.node().equals(node))) {
            return;
        }
        ServerProcesses.Node process = processes.node(node);
        long now = System.nanoTime();
        log.info("nemesis: {} {}", kind, node);
        switch (kind) {
            case KILL, KILL_LEADER, KILL_HOT_OWNER -> {
                process.kill();
                pending.add(new Recovery(now + delayNanos(6, 12), node, kind, now));
            }
            case PAUSE -> {
                process.signal("STOP");
                pending.add(new Recovery(now + options.escalationTimeout().toNanos() + delayNanos(2, 4), node, kind, now));
            }
            case DRAIN_AND_REJOIN -> {
                io.zaris.cluster.NodeAddress address = client.clusterView().addresses().get(node);
                ServerProcesses.AdminRun run = address == null ? null
                        : processes.admin("--node", address.host() + ":" + address.port(), "drain", "--no-wait");
                if (run == null || run.status() != 0) {
                    log.info("nemesis: {} refused to drain ({})", node, run == null ? "no address" : run.err().strip());
                    return;
                }
                pending.add(new Recovery(now + TimeUnit.SECONDS.toNanos(1), node, kind, now));
            }
            case GRACEFUL_RESTART -> {
                process.process().destroy();
                process.process().waitFor(30, TimeUnit.SECONDS);
                pending.add(new Recovery(now + delayNanos(2, 4), node, kind, now));
            }
        }
    }

    /**
     * Undoes a fault. A drain goes in two steps: while the node still holds partitions it is checked again
     * a second later (until {@link #DRAIN_TIMEOUT_NANOS}); once drained it is stopped and restarted a few
     * seconds later. When {@code healing}, it is stopped and restarted at once.
     */
    private void recover(Recovery recovery, boolean healing) throws IOException, InterruptedException {
        ServerProcesses.Node process = processes.node(recovery.node());
        if (recovery.kind() == Kind.DRAIN_AND_REJOIN && process.process().isAlive()) {
            long now = System.nanoTime();
            boolean drained = isDrained(recovery.node());
            if (!healing && !drained && now - recovery.startNanos() < DRAIN_TIMEOUT_NANOS) {
                pending.add(new Recovery(now + TimeUnit.SECONDS.toNanos(1), recovery.node(), recovery.kind(),
                        recovery.startNanos()));
                return;
            }
            log.info("nemesis: {} {} after {} ms; stopping it", recovery.node(), drained ? "drained" : "not drained",
                    TimeUnit.NANOSECONDS.toMillis(now - recovery.startNanos()));
            process.process().destroy();
            process.process().waitFor(30, TimeUnit.SECONDS);
            if (!healing) {
                pending.add(new Recovery(now + delayNanos(2, 4), recovery.node(), recovery.kind(), recovery.startNanos()));
                return;
            }
        }
        if (recovery.kind() == Kind.PAUSE) {
            process.signal("CONT");
        } else if (!process.process().isAlive()) {
            processes.restart(recovery.node());
        }
        awaitingHealth.add(recovery.node());
        faults.add(new Fault(recovery.kind(), recovery.node(), recovery.startNanos(), System.nanoTime()));
        log.info("nemesis: recovered {} from {}", recovery.node(), recovery.kind());
    }

    /**
     * Whether a freshly fetched map shows every partition HEALTHY: a node that came back counts as failed
     * until then (it is not yet an in-sync replica), so faults never overlap beyond the tolerated count. Fetched,
     * not the client's cached view: with no majority nobody updates health, and a seed-106 run read "all
     * HEALTHY" from a stale view, killed the one node still holding data and lost everything.
     */
    private boolean allHealthy() {
        return client.refreshMap().join().runtimeMap().partitions().stream()
                .allMatch(p -> p.health() == io.zaris.cluster.PartitionHealth.HEALTHY);
    }

    /**
     * Whether every node that came back runs, adopted a map and sits in a view with every node not still
     * down: a drained node that rejoins has no role, so the map alone calls the cluster healthy before it even
     * started.
     */
    private boolean recoveredNodesRejoined() throws IOException {
        int expected = options.nodes() - pending.size();
        for (String node : awaitingHealth) {
            if (!ChaosRun.hasJoined(processes.node(node), expected)) {
                return false;
            }
        }
        return true;
    }

    /** Whether the client's map gives {@code node} no role: not an assigned owner, not active anywhere. */
    private boolean isDrained(String node) {
        ClusterView view = client.clusterView();
        return !view.partitionMap().nodes().contains(node)
                && view.runtimeMap().partitions().stream().noneMatch(p -> node.equals(p.activeNode()));
    }

    /** The node a fault of this kind hits, or {@code null} when none qualifies. */
    private String target(Kind kind) throws IOException {
        List<String> healthy = new ArrayList<>();
        for (ServerProcesses.Node node : processes.nodes()) {
            if (node.process().isAlive() && pending.stream().noneMatch(r -> r.node().equals(node.nodeId()))
                    && !awaitingHealth.contains(node.nodeId())) {
                healthy.add(node.nodeId());
            }
        }
        if (healthy.isEmpty()) {
            return null;
        }
        if (kind == Kind.KILL_LEADER) {
            String leader = currentCoordinator(healthy);
            return healthy.contains(leader) ? leader : null;
        }
        if (kind == Kind.KILL_HOT_OWNER) {
            ClusterView view = client.clusterView();
            String owner = view.runtimeOfSegment(new SegmentMapper(view.layout().segmentCount())
                    .segmentOf(Workload.casKey(0))).activeNode();
            return healthy.contains(owner) ? owner : null;
        }
        return healthy.get(random.nextInt(healthy.size()));
    }

    /** The coordinator of the newest membership view a healthy node logged. */
    private String currentCoordinator(List<String> healthy) throws IOException {
        String coordinator = null;
        String newestLine = "";
        for (String node : healthy) {
            for (String line : processes.node(node).logText().split("\n")) {
                Matcher matcher = VIEW.matcher(line);
                if (matcher.find() && line.compareTo(newestLine) >= 0) {
                    newestLine = line;
                    coordinator = matcher.group(1);
                }
            }
        }
        return coordinator;
    }

    private long delayNanos(int minSeconds, int maxSeconds) {
        return TimeUnit.MILLISECONDS.toNanos(minSeconds * 1000L + random.nextInt((maxSeconds - minSeconds) * 1000 + 1));
    }
}
