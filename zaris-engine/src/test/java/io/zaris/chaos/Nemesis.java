package io.zaris.chaos;

import io.zaris.client.ZarisClient;
import io.zaris.model.ClusterView;
import io.zaris.placement.SegmentMapper;
import io.zaris.server.ServerProcesses;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
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
 * member and a rebalance moves partitions back to it.
 *
 * <p>On a network test bed ({@link ChaosCluster#network()}) it also cuts the network, each cut healed after a
 * while: a random minority isolated from the rest and from the clients, the leader isolated, a one-way partition
 * (a node's packets to its peers vanish, or theirs to it), a flapping link (down and up every few seconds), and
 * added latency where the kernel has {@code tc netem} (otherwise that fault is skipped, and the report says so).
 * At most one network fault is in effect at a time, so healing one is healing the bed.
 *
 * <p>Never more impaired nodes at once than {@link ChaosOptions#maxSimultaneousFaults()}: a node killed, paused,
 * draining, or on the wrong side of a network fault counts, and so does one recovered until it rejoined and
 * every partition is fully redundant again ({@code HEALTHY}, and its active owner's readiness probe says every
 * replica is synced).
 *
 * <p>Never a fault beyond what SYNC promises ({@link LiveCopies}): one that, with the impaired nodes, could take
 * down every live copy of some partition is deferred, its kind kept at the head of the round and tried again every
 * {@link #DEFERRED_RETRY_NANOS} until it is within the promise; {@link Deferrals} counts them for the report.
 *
 * <p>Runs on its own thread as a small event loop: every tick it performs the recoveries that are due and,
 * when the next fault's time has come, injects it. {@link #heal()} performs every pending recovery now. The
 * pending recoveries, the nodes awaiting health and the faults list are guarded by this object's lock.
 */
final class Nemesis {

    private static final Logger log = LoggerFactory.getLogger(Nemesis.class);
    private static final Pattern VIEW = Pattern.compile("membership view \\[([^|\\]]+)\\|");

    enum Kind {
        KILL(false), PAUSE(false), KILL_LEADER(false), KILL_HOT_OWNER(false), GRACEFUL_RESTART(false),
        DRAIN_AND_REJOIN(false),
        PARTITION_MINORITY(true), PARTITION_LEADER(true), ONE_WAY_PARTITION(true), FLAPPING_LINK(true),
        ADDED_LATENCY(true), CONGESTED_LINK(true);

        /** Whether the fault cuts or slows the network (bed only) rather than acting on a process. */
        final boolean network;

        Kind(boolean network) {
            this.network = network;
        }
    }

    /** A flapping link changes state after this long, at random within the range, until the fault ends. */
    private static final int FLAP_MIN_SECONDS = 2;
    private static final int FLAP_MAX_SECONDS = 4;

    /** How soon a fault deferred by {@link LiveCopies} is tried again. */
    private static final long DEFERRED_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** How long the nemesis waits for one node's readiness probe; a node that does not answer counts as not ready. */
    private static final Duration READINESS_TIMEOUT = Duration.ofSeconds(1);

    /** Whether a fault was injected, not injected (no node qualified), or deferred as beyond the promise. */
    enum Injection {
        STARTED, NOT_STARTED, DEFERRED
    }

    /** A drain that has not finished by then is cut short: the node is stopped anyway (its rest fails over). */
    private static final long DRAIN_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(120);

    /** One injected fault: what, on which node (or nodes, joined by '+'), when it started and when it was undone. */
    record Fault(Kind kind, String node, long startNanos, long endNanos) {
    }

    /**
     * What is due at {@code dueNanos} to undo (or, for a drain or a flapping link, advance) a fault on {@code nodes}.
     * {@code untilNanos} is when a flapping link stops flapping; unused by the other kinds.
     */
    private record Recovery(long dueNanos, List<String> nodes, Kind kind, long startNanos, long untilNanos) {

        Recovery(long dueNanos, String node, Kind kind, long startNanos) {
            this(dueNanos, List.of(node), kind, startNanos, 0);
        }

        Recovery {
            nodes = List.copyOf(nodes);
        }

        /** The first node: the only one, except for an isolated minority. */
        String node() {
            return nodes.get(0);
        }

        boolean involves(String node) {
            return nodes.contains(node);
        }
    }

    private final ChaosCluster processes;
    /** The bed's network faults; {@code null} on loopback. */
    private final NetworkFaults network;
    /** The kinds this run draws from: every process fault, plus the network faults the bed supports. */
    private final List<Kind> kinds;
    /**
     * The kinds still to be drawn in this round: every kind once per round, in a seeded random order, so a run
     * meets each kind about equally often (uniform draws left two of ten kinds out of a 36-fault stretch).
     */
    private final List<Kind> round = new ArrayList<>();
    /** Whether a flapping link is down now; only while a FLAPPING_LINK recovery is pending. */
    private boolean flappingLinkDown;
    private final ZarisClient client;
    private final ChaosOptions options;
    private final Random random;
    private final List<Recovery> pending = new ArrayList<>();
    /** Restarted, resumed or reconnected nodes that still count as failed until every partition is fully redundant again. */
    private final Set<String> awaitingHealth = new HashSet<>();
    private final List<Fault> faults = new ArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Deferrals deferrals = new Deferrals();
    /** A deferred fault is retried every second; its reason is logged when it changes, and otherwise every 10 s. */
    private final RepeatedLineFilter deferralLog = new RepeatedLineFilter(TimeUnit.SECONDS.toNanos(10));
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(READINESS_TIMEOUT).build();
    private Thread thread;

    Nemesis(ChaosCluster processes, ZarisClient client, ChaosOptions options) {
        this.processes = processes;
        this.network = processes.network().orElse(null);
        this.client = client;
        this.options = options;
        this.random = new Random(options.seed() ^ 0x5EED);
        this.kinds = kinds(network);
    }

    /** The kinds of fault a run draws from, given its network faults ({@code null}: loopback); warns of a skip. */
    private static List<Kind> kinds(NetworkFaults network) {
        if (network != null && !network.supportsDelay()) {
            String banner = "!".repeat(100);
            log.warn(banner);
            log.warn("ADDED_LATENCY SKIPPED: this kernel has no tc netem (CONFIG_NET_SCH_NETEM); the run injects the "
                    + "other network faults, a congested link (tc tbf) among them");
            log.warn(banner);
        }
        return kinds(network != null, network != null && network.supportsDelay());
    }

    /** Every process fault; on a bed also every network fault, added latency only where it can be added. */
    static List<Kind> kinds(boolean onBed, boolean delaySupported) {
        List<Kind> kinds = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            if (!kind.network || (onBed && (kind != Kind.ADDED_LATENCY || delaySupported))) {
                kinds.add(kind);
            }
        }
        return List.copyOf(kinds);
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
        deferrals.runEnded(System.nanoTime());
        return List.copyOf(faults);
    }

    /** The faults deferred as beyond the promise, for the report; complete once {@link #heal()} returned. */
    synchronized Deferrals.Summary deferrals() {
        return deferrals.summary();
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
                    if (!awaitingHealth.isEmpty() && recoveredNodesRejoined()
                            && LiveCopies.allFullyRedundant(observeCopies())) {
                        awaitingHealth.clear();
                    }
                    if (now - nextFault >= 0) {
                        long delay = delayNanos(5, 12);
                        if (impairedNodes() < options.maxSimultaneousFaults()) {
                            Kind kind = nextKind();
                            Injection injection = kind == null ? Injection.NOT_STARTED : inject(kind);
                            if (injection == Injection.DEFERRED) {
                                round.add(0, kind);
                                deferrals.deferred(kind, now);
                                delay = DEFERRED_RETRY_NANOS;
                            } else if (kind != null) {
                                deferrals.resolved(now);
                            }
                        }
                        nextFault = now + delay;
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

    /**
     * The next kind of fault of the round that can be injected now (a network fault waits while another is in
     * effect, keeping its place); {@code null} when none can. A new round starts when the last one is used up.
     */
    private Kind nextKind() {
        if (round.isEmpty()) {
            round.addAll(kinds);
            Collections.shuffle(round, random);
        }
        boolean networkFaultInEffect = pending.stream().anyMatch(r -> r.kind().network);
        for (Iterator<Kind> it = round.iterator(); it.hasNext(); ) {
            Kind kind = it.next();
            if (!kind.network || !networkFaultInEffect) {
                it.remove();
                return kind;
            }
        }
        return null;
    }

    /** Nodes impaired now: those a pending recovery involves, and those recovered but not yet healthy again. */
    private int impairedNodes() {
        return pending.stream().mapToInt(r -> r.nodes().size()).sum() + awaitingHealth.size();
    }

    private Injection inject(Kind kind) throws IOException, InterruptedException {
        if (kind.network) {
            return injectNetworkFault(kind);
        }
        List<LiveCopies.Partition> copies = observeCopiesForAFault(kind);
        if (copies == null) {
            return Injection.DEFERRED;
        }
        Target target = target(kind, copies);
        String node = target.node();
        if (node == null || pending.stream().anyMatch(r -> r.involves(node))) {
            return target.deferred() ? Injection.DEFERRED : Injection.NOT_STARTED;
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
                io.zaris.model.NodeAddress address = client.clusterView().addresses().get(node);
                ServerProcesses.AdminRun run = address == null ? null
                        : processes.admin("--node", address.host() + ":" + address.port(), "drain", "--no-wait");
                if (run == null || run.status() != 0) {
                    log.info("nemesis: {} refused to drain ({})", node, run == null ? "no address" : run.err().strip());
                    return Injection.NOT_STARTED;
                }
                pending.add(new Recovery(now + TimeUnit.SECONDS.toNanos(1), node, kind, now));
            }
            case GRACEFUL_RESTART -> {
                process.process().destroy();
                process.process().waitFor(30, TimeUnit.SECONDS);
                pending.add(new Recovery(now + delayNanos(2, 4), node, kind, now));
            }
            default -> throw new IllegalArgumentException("not a process fault: " + kind);
        }
        return Injection.STARTED;
    }


    /**
     * Cuts or slows the network around one node, or a minority: never while another network fault is in effect
     * (so the bed's heal undoes exactly this one), never on more nodes than the budget of impaired nodes
     * leaves, and never beyond the promise ({@link LiveCopies}): then it is deferred.
     */
    private Injection injectNetworkFault(Kind kind) throws IOException {
        if (pending.stream().anyMatch(r -> r.kind().network)) {
            return Injection.NOT_STARTED;
        }
        List<String> healthy = healthyNodes();
        if (healthy.isEmpty()) {
            return Injection.NOT_STARTED;
        }
        List<LiveCopies.Partition> copies = observeCopiesForAFault(kind);
        if (copies == null) {
            return Injection.DEFERRED;
        }
        Set<String> impaired = impaired();
        long now = System.nanoTime();
        switch (kind) {
            case PARTITION_MINORITY -> {
                int budget = Math.min(options.maxSimultaneousFaults() - impairedNodes(), (options.nodes() - 1) / 2);
                if (budget < 1) {
                    return Injection.NOT_STARTED;
                }
                List<String> shuffled = new ArrayList<>(healthy);
                Collections.shuffle(shuffled, random);
                int size = 1 + random.nextInt(Math.min(budget, shuffled.size()));
                List<String> minority = minority(shuffled, size, copies, impaired);
                if (minority.isEmpty()) {
                    logDeferred(kind, shuffled.get(0), copies, impaired);
                    return Injection.DEFERRED;
                }
                log.info("nemesis: {} {}", kind, minority);
                network.isolate(minority);
                pending.add(new Recovery(now + delayNanos(4, 20), minority, kind, now, 0));
            }
            case PARTITION_LEADER -> {
                String leader = currentCoordinator(healthy);
                if (!healthy.contains(leader)) {
                    return Injection.NOT_STARTED;
                }
                if (chooseFixed(leader, healthy, copies, impaired).deferred()) {
                    logDeferred(kind, leader, copies, impaired);
                    return Injection.DEFERRED;
                }
                log.info("nemesis: {} {}", kind, leader);
                network.isolate(List.of(leader));
                pending.add(new Recovery(now + delayNanos(8, 20), leader, kind, now));
            }
            case ONE_WAY_PARTITION -> {
                Target target = chooseAny(healthy, copies, impaired, random);
                if (target.deferred()) {
                    logDeferred(kind, healthy.get(0), copies, impaired);
                    return Injection.DEFERRED;
                }
                String node = target.node();
                boolean outgoing = random.nextBoolean();
                log.info("nemesis: {} {} ({} its peers lost)", kind, node, outgoing ? "its packets to" : "packets from");
                if (outgoing) {
                    network.silenceTowardsPeers(node);
                } else {
                    network.deafenTowardsPeers(node);
                }
                pending.add(new Recovery(now + delayNanos(8, 20), node, kind, now));
            }
            case FLAPPING_LINK -> {
                Target target = chooseAny(healthy, copies, impaired, random);
                if (target.deferred()) {
                    logDeferred(kind, healthy.get(0), copies, impaired);
                    return Injection.DEFERRED;
                }
                String node = target.node();
                long until = now + delayNanos(15, 30);
                log.info("nemesis: {} {} for {} ms", kind, node, TimeUnit.NANOSECONDS.toMillis(until - now));
                network.setLink(node, false);
                flappingLinkDown = true;
                pending.add(new Recovery(now + delayNanos(FLAP_MIN_SECONDS, FLAP_MAX_SECONDS), List.of(node), kind, now,
                        until));
            }
            case ADDED_LATENCY -> {
                Target target = chooseAny(healthy, copies, impaired, random);
                if (target.deferred()) {
                    logDeferred(kind, healthy.get(0), copies, impaired);
                    return Injection.DEFERRED;
                }
                String node = target.node();
                Duration delay = Duration.ofMillis(50 + random.nextInt(251));
                log.info("nemesis: {} {} ({} ms ± 20 ms each way)", kind, node, delay.toMillis());
                network.delay(node, delay, Duration.ofMillis(20));
                pending.add(new Recovery(now + delayNanos(10, 20), node, kind, now));
            }
            case CONGESTED_LINK -> {
                Target target = chooseAny(healthy, copies, impaired, random);
                if (target.deferred()) {
                    logDeferred(kind, healthy.get(0), copies, impaired);
                    return Injection.DEFERRED;
                }
                String node = target.node();
                long kilobitsPerSecond = 16L << random.nextInt(4); // 16, 32, 64 or 128 kbit/s
                Duration queueing = Duration.ofMillis(500 + random.nextInt(1501));
                log.info("nemesis: {} {} ({} kbit/s each way, queueing up to {} ms)", kind, node, kilobitsPerSecond,
                        queueing.toMillis());
                network.throttle(node, kilobitsPerSecond, queueing);
                pending.add(new Recovery(now + delayNanos(10, 20), node, kind, now));
            }
            default -> throw new IllegalArgumentException("not a network fault: " + kind);
        }
        return Injection.STARTED;
    }

    /**
     * Advances or undoes a network fault: a flapping link changes state until its time is up (or the run heals);
     * every other network fault, and the flapping link at its end, is undone by healing the bed.
     */
    private void recoverNetwork(Recovery recovery, boolean healing) {
        long now = System.nanoTime();
        if (recovery.kind() == Kind.FLAPPING_LINK && !healing && now - recovery.untilNanos() < 0) {
            flappingLinkDown = !flappingLinkDown;
            network.setLink(recovery.node(), !flappingLinkDown);
            log.info("nemesis: {} {} link {}", recovery.kind(), recovery.node(), flappingLinkDown ? "down" : "up");
            pending.add(new Recovery(now + delayNanos(FLAP_MIN_SECONDS, FLAP_MAX_SECONDS), recovery.nodes(),
                    recovery.kind(), recovery.startNanos(), recovery.untilNanos()));
            return;
        }
        network.heal();
        flappingLinkDown = false;
        awaitingHealth.addAll(recovery.nodes());
        faults.add(new Fault(recovery.kind(), String.join("+", recovery.nodes()), recovery.startNanos(), now));
        log.info("nemesis: healed {} {}", recovery.kind(), recovery.nodes());
    }

    /**
     * Undoes a fault. A drain goes in two steps: while the node still holds partitions it is checked again
     * a second later (until {@link #DRAIN_TIMEOUT_NANOS}); once drained it is stopped and restarted a few
     * seconds later. When {@code healing}, it is stopped and restarted at once.
     */
    private void recover(Recovery recovery, boolean healing) throws IOException, InterruptedException {
        if (recovery.kind().network) {
            recoverNetwork(recovery, healing);
            return;
        }
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
     * What the nemesis can know of every partition's copies now ({@link LiveCopies}): a freshly fetched map, and the
     * readiness probe of each serving active owner. Fetched, not the client's cached view: with no majority nobody
     * updates health, and a seed-106 run read "all HEALTHY" from a stale view, killed the one node still holding
     * data and lost everything. A node recovered from a fault counts as failed until every partition is fully
     * redundant: HEALTHY alone was not enough (seed 120421 on the bed: partitions healed back to a node were HEALTHY
     * before their third copies had synced under the heal's epoch).
     */
    private List<LiveCopies.Partition> observeCopies() {
        ClusterView view = client.refreshMap().join();
        Map<String, Boolean> ready = new HashMap<>();
        return LiveCopies.observe(view, node -> ready.computeIfAbsent(node, this::reportsReady));
    }

    /**
     * {@link #observeCopies()} before a fault of {@code kind}; {@code null} when the map could not be fetched: with
     * nothing known, the fault is deferred.
     */
    private List<LiveCopies.Partition> observeCopiesForAFault(Kind kind) {
        try {
            return observeCopies();
        } catch (RuntimeException e) {
            log.info("nemesis: {} deferred: the map could not be fetched ({})", kind, e.toString());
            return null;
        }
    }

    /** Whether the node's readiness probe answers 200 in {@link #READINESS_TIMEOUT}; a node under a fault is not asked. */
    private boolean reportsReady(String node) {
        if (pending.stream().anyMatch(r -> r.involves(node)) || !isKnown(node)) {
            return false;
        }
        HttpRequest request = HttpRequest.newBuilder(processes.readinessUri(node)).timeout(READINESS_TIMEOUT).GET()
                .build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Whether the run has a node of this id (a map may name a node the run does not know only if it is corrupt). */
    private boolean isKnown(String node) {
        return processes.nodes().stream().anyMatch(n -> n.nodeId().equals(node));
    }

    /** The impaired nodes: under a pending fault, or recovered and not yet counted back ({@link #awaitingHealth}). */
    private Set<String> impaired() {
        Set<String> impaired = new HashSet<>(awaitingHealth);
        pending.forEach(recovery -> impaired.addAll(recovery.nodes()));
        return impaired;
    }

    private void logDeferred(Kind kind, String node, List<LiveCopies.Partition> copies, Set<String> impaired) {
        String reason = LiveCopies.endangered(copies, impaired, List.of(node))
                .map(partition -> String.format("%s deferred: %s could take down every live copy of partition %d "
                        + "(owners %s, serving %s, fully redundant %s; impaired %s)", kind, node, partition.partition(),
                        partition.owners(), partition.servingActive(), partition.fullyRedundant(), impaired))
                .orElseGet(() -> String.format("%s deferred: no node it may hit keeps every partition a live copy "
                        + "(impaired %s)", kind, impaired));
        if (deferralLog.shouldLog(reason, System.nanoTime())) {
            log.info("nemesis: {}", reason);
        }
    }

    /**
     * Whether every node that came back runs, adopted a map and sits in a view with every node not still
     * down: a drained node that rejoins has no role, so the map alone calls the cluster healthy before it even
     * started.
     */
    private boolean recoveredNodesRejoined() throws IOException {
        int expected = options.nodes() - pending.stream().mapToInt(r -> r.nodes().size()).sum();
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

    /** Nodes that run, are under no fault and are not awaiting health after one. */
    private List<String> healthyNodes() {
        List<String> healthy = new ArrayList<>();
        for (ServerProcesses.Node node : processes.nodes()) {
            if (node.process().isAlive() && pending.stream().noneMatch(r -> r.involves(node.nodeId()))
                    && !awaitingHealth.contains(node.nodeId())) {
                healthy.add(node.nodeId());
            }
        }
        return healthy;
    }

    /** The node a process fault hits ({@code null}: none), and whether one was passed over as beyond the promise. */
    record Target(String node, boolean deferred) {
    }

    /**
     * The node a process fault of this kind hits: the leader, the busiest owner, or a random healthy node among those
     * the promise allows ({@link LiveCopies}); deferred when the one it must hit, or every healthy node, is not.
     */
    private Target target(Kind kind, List<LiveCopies.Partition> copies) throws IOException {
        List<String> healthy = healthyNodes();
        if (healthy.isEmpty()) {
            return new Target(null, false);
        }
        Set<String> impaired = impaired();
        String fixed = null;
        if (kind == Kind.KILL_LEADER) {
            fixed = currentCoordinator(healthy);
        } else if (kind == Kind.KILL_HOT_OWNER) {
            ClusterView view = client.clusterView();
            fixed = view.runtimeOfSegment(new SegmentMapper(view.layout().segmentCount())
                    .segmentOf(Workload.casKey(0))).activeNode();
        }
        boolean mustHitFixed = kind == Kind.KILL_LEADER || kind == Kind.KILL_HOT_OWNER;
        Target target = mustHitFixed ? chooseFixed(fixed, healthy, copies, impaired)
                : chooseAny(healthy, copies, impaired, random);
        if (target.deferred()) {
            logDeferred(kind, mustHitFixed ? fixed : healthy.get(0), copies, impaired);
        }
        return target;
    }

    /**
     * Whether a fault that must hit {@code fixed} (the leader, the busiest owner; {@code null}: unknown) does, a pure
     * decision: not when it is not healthy, and deferred when {@link LiveCopies} refuses it given the {@code impaired}
     * nodes.
     */
    static Target chooseFixed(String fixed, List<String> healthy, List<LiveCopies.Partition> copies,
                              Set<String> impaired) {
        if (fixed == null || !healthy.contains(fixed)) {
            return new Target(null, false);
        }
        return LiveCopies.endangered(copies, impaired, List.of(fixed)).isPresent() ? new Target(null, true)
                : new Target(fixed, false);
    }

    /**
     * Which node a fault that may hit any node hits, a pure decision: a random one of {@code healthy} that
     * {@link LiveCopies} allows given the {@code impaired} nodes; deferred when it allows none.
     */
    static Target chooseAny(List<String> healthy, List<LiveCopies.Partition> copies, Set<String> impaired,
                            Random random) {
        if (healthy.isEmpty()) {
            return new Target(null, false);
        }
        List<String> allowed = healthy.stream()
                .filter(node -> LiveCopies.endangered(copies, impaired, List.of(node)).isEmpty()).toList();
        return allowed.isEmpty() ? new Target(null, true)
                : new Target(allowed.get(random.nextInt(allowed.size())), false);
    }

    /**
     * The nodes a minority partition isolates, a pure decision: {@code size} of {@code shuffled} (the healthy nodes,
     * in a random order) if the promise allows it, else as many as it allows, each node added only if the group so
     * far stays within {@link LiveCopies}; empty when not even one may be isolated (the fault is then deferred).
     */
    static List<String> minority(List<String> shuffled, int size, List<LiveCopies.Partition> copies, Set<String> impaired) {
        List<String> minority = new ArrayList<>();
        for (String node : shuffled) {
            List<String> larger = new ArrayList<>(minority);
            larger.add(node);
            if (minority.size() < size && LiveCopies.endangered(copies, impaired, larger).isEmpty()) {
                minority = larger;
            }
        }
        return minority;
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
