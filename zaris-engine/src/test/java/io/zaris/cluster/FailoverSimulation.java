package io.zaris.cluster;

import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.RuntimeMap;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import io.zaris.placement.PartitionPlanner;
import io.zaris.protocol.PartitionState;
import io.zaris.replication.ReplicationSettings;
import io.zaris.time.FakeTime;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * A deterministic simulation of the cluster's failover logic: the production {@link FailoverCoordinator} of a
 * fixed leader decides, and a model of every node's copies of every partition answers its questions through a
 * simulated {@link PeerProbe}. Everything runs on one thread from one seeded scheduler and one fake clock, so a
 * seed replays exactly.
 *
 * <p><b>Modelled.</b> N members plus one spare that joins later; partitions with their owners, epochs and health
 * as the coordinator publishes them; an in-memory message bus with per-message delay (in order per link), loss,
 * and cuts between groups of nodes. Each copy is the set of write ids it applied (a key's value is its highest write id) with
 * the highest epoch it saw and the epoch it is complete under. A write goes to the node the leader's view names
 * active; the active applies it and ships its whole copy to every owner its view says serves; the write is
 * acknowledged (SYNC) only when every one of those replicas applied it within the client's timeout (which runs
 * while the active is paused), else it fails. The
 * active also ships its copy to every owner each tick (anti-entropy) and counts the replicas that confirmed
 * all of it. A replica refuses a shipment under an epoch older than one it saw (fencing). A node that becomes
 * active under a new epoch pulls from every other owner that serves before it serves (the takeover
 * catch-up), giving up on a silent one after a deadline. Owner leases: the leader grants one on each beat it
 * receives, together with its newest view; a node serves only within its lease, and the leader counts a node
 * present only while its beats arrive, for longer than a lease. The leader runs a round every
 * {@link #ROUND_INTERVAL}. Faults: crash, restart with an empty store (the restarted node disowns
 * its active roles), pause and resume (messages wait for it), message loss and delay, network cuts and heals,
 * a spare node joining and a node being drained, mixed with writes and reads.
 *
 * <p><b>Not modelled.</b> JGroups views, merges and majority (membership is the leader's beat table, and the
 * leader never fails, pauses or is cut off from the clients); leader election; clock drift (one clock);
 * segments (one per partition), revisions per key, TTLs and deletes; incremental replication streams (each
 * shipment is a whole-copy snapshot); ASYNC writes; client routing caches (a client always asks the leader's
 * newest view).
 *
 * <p>Invariants, checked after every event: at most one serving active per partition and epoch; the
 * published epochs and each node's seen epochs never go back; a promotion that serves at once (DEGRADED) is
 * not given to a copy lacking an acknowledged write that another owner's answer to that round held (the
 * possession proof); every copy that serves holds every acknowledged write of its partition; a read never
 * returns a value older than the newest write acknowledged before it was sent. An acknowledged write that no
 * live, unsuspended member held when its partition changed epoch (every copy crashed, restarted or cut off for
 * longer than detection: more faults than copies) is counted as lost to the faults and exempt from the last two.
 *
 * <p>Threads: one. The scheduler runs events in (time, sequence) order; the coordinator's events executor
 * schedules onto it.
 */
final class FailoverSimulation {

    static final int PARTITIONS = 4;
    static final int KEYS_PER_PARTITION = 3;
    static final long MS = 1_000_000L;
    static final long TICK = 100 * MS;
    static final long LEASE = 1_000 * MS;
    /** A node whose beats stopped arriving for this long leaves the leader's membership: longer than a lease. */
    static final long DETECTION = 2_000 * MS;
    static final long SUSPEND_GRACE = 500 * MS;
    static final long PROBE_TIMEOUT = 300 * MS;
    static final long CATCH_UP_GIVE_UP = 3_000 * MS;
    static final long WRITE_TIMEOUT = 500 * MS;
    static final int MAX_PENDING_WRITES = 64;
    static final int MAX_PARKED_MESSAGES = 4_096;
    static final long RUN_TIME = 6_000 * MS;
    /** The leader runs a failover round this often (production: every second and on every view change). */
    static final long ROUND_INTERVAL = 250 * MS;
    static final String LEADER = "n1";

    /** A violated invariant, with the seed to replay it. */
    static final class Violation extends AssertionError {
        Violation(String message) {
            super(message);
        }
    }

    /** A view as the leader published it, with the membership it was decided under and its publication order. */
    private record Envelope(long sequence, ClusterView view, Set<String> present) {
    }

    /** One node's copy of one partition. Owned by the scheduler thread like everything here. */
    private static final class Copy {
        final TreeSet<Long> writes = new TreeSet<>();
        long seenEpoch;
        long completeEpoch;
        /** The epoch under which this node is (or was last) active; its takeover catch-up belongs to it. */
        long activeEpoch;
        boolean gateOpen;
        final Set<String> awaitingPull = new TreeSet<>();
        long giveUpAt;
        /** Replica → how many writes it confirmed holding under {@link #activeEpoch}. */
        final Map<String, Integer> confirmed = new HashMap<>();
        /** Bumped on every change of {@link #writes} (for the incremental acknowledged-writes check). */
        long mutations;
        long checkedMutations = -1;
        int checkedAcknowledged;

        void replaceWith(Collection<Long> snapshot) {
            writes.clear();
            writes.addAll(snapshot);
            mutations++;
        }

        void addAll(Collection<Long> more) {
            if (writes.addAll(more)) {
                mutations++;
            }
        }
    }

    private record PendingWrite(long id, int partition, long epoch, Set<String> required, Set<String> acks,
                                long deadline) {
    }

    private final class Node {
        final String id;
        final NodeAddress address;
        boolean started;
        boolean alive;
        boolean paused;
        int incarnation;
        Envelope held;
        long leaseUntil = Long.MIN_VALUE;
        final Map<Integer, Copy> copies = new TreeMap<>();
        final List<PendingWrite> pending = new ArrayList<>();
        /** Messages that arrived while paused, delivered in order on resume; beyond the bound they are lost. */
        final ArrayDeque<Runnable> parked = new ArrayDeque<>();
        /**
         * After a restart, partition → the epoch under which the first view it adopted named it active: that role
         * was its previous process's, whose data is gone, so it never takes it up (the leader fails it over).
         */
        Map<Integer, Long> inheritedRoles;

        Node(String id, int index) {
            this.id = id;
            this.address = new NodeAddress("sim", 1 + index);
        }

        Copy copy(int partition) {
            return copies.computeIfAbsent(partition, p -> new Copy());
        }

        boolean serving(int partition) {
            if (!alive || paused || held == null || now >= leaseUntil) {
                return false;
            }
            PartitionRuntime runtime = held.view().runtimeMap().get(partition);
            Copy copy = copies.get(partition);
            return id.equals(runtime.activeNode()) && runtime.health().isServing() && copy != null
                    && copy.activeEpoch == runtime.epoch() && copy.gateOpen && copy.seenEpoch == runtime.epoch();
        }
    }

    private record Scheduled(long time, long sequence, String what, Runnable action) {
    }

    final long seed;
    private final Random random;
    private final long[] clock = {1_000_000_000L};
    private long now = clock[0];
    private long sequence;
    private final PriorityQueue<Scheduled> queue = new PriorityQueue<>(
            (a, b) -> a.time != b.time ? Long.compare(a.time, b.time) : Long.compare(a.sequence, b.sequence));
    private final Map<String, Node> nodes = new LinkedHashMap<>();
    private final Map<NodeAddress, Node> byAddress = new HashMap<>();
    private final PartitionLayout layout = PartitionLayout.of(PARTITIONS, PARTITIONS);
    private final FailoverCoordinator coordinator;
    private final double loss;
    private final long maxDelay;
    /** Which side of a cut each node is on; nodes on different sides exchange nothing. Empty when healed. */
    private final Map<String, Integer> side = new HashMap<>();
    /** "from>to" → when the link's latest message arrives: messages between two nodes keep their order. */
    private final Map<String, Long> linkClear = new HashMap<>();

    // leader state
    private Envelope published;
    private long nextRoundAt;
    private long publications;
    private final Map<String, Long> lastBeat = new HashMap<>();
    private final Map<String, Long> lastGrant = new HashMap<>();
    private final Map<String, Integer> knownIncarnation = new HashMap<>();
    /**
     * Node → partition → the acknowledged writes its copy held when it answered the leader's latest round (all
     * of a round's questions are asked at one instant, {@link #roundAskedAt}).
     */
    private final Map<String, Map<Integer, Set<Long>>> answered = new HashMap<>();
    private long roundAskedAt = Long.MIN_VALUE;
    private final long[] highestPublishedEpoch = new long[PARTITIONS];

    // the clients' view of history
    private final Map<Integer, List<Long>> acknowledged = new HashMap<>();
    private final Set<Long> acknowledgedIds = new HashSet<>();
    private final Map<Long, String> keyOf = new HashMap<>();
    /**
     * Acknowledged writes no node of the membership held when their partition changed hands: every copy was on
     * a crashed, restarted or cut-off node (more faults than copies). The design then serves what survives rather
     * than nothing, so these are counted, not held against the coordinator.
     */
    private final Set<Long> lostToFaults = new HashSet<>();
    private long nextWriteId;
    private final Map<String, Long> seenEpochFloor = new HashMap<>();
    private String currentEvent = "start";
    /** The latest steps, formatted only when a violation is reported (formatting every step would dominate a run). */
    private final ArrayDeque<Supplier<String>> trace = new ArrayDeque<>();
    private String scenario;
    int writesAcknowledged;
    int readsServed;

    int lostToFaults() {
        return lostToFaults.size();
    }

    FailoverSimulation(long seed) {
        this(seed, UnaryOperator.identity());
    }

    /** @param probeDecorator wraps the simulated probe the coordinator asks (a fault injected on purpose) */
    FailoverSimulation(long seed, UnaryOperator<PeerProbe> probeDecorator) {
        this.seed = seed;
        this.random = new Random(seed);
        int members = 3 + random.nextInt(3);
        int replicationFactor = 2 + random.nextInt(Math.min(2, members - 1));
        this.loss = random.nextInt(4) == 0 ? 0 : random.nextDouble() * 0.15;
        this.maxDelay = (1 + random.nextInt(40)) * MS;
        for (int i = 0; i <= members; i++) {
            Node node = new Node("n" + (i + 1), i);
            nodes.put(node.id, node);
            byAddress.put(node.address, node);
        }
        Duration eviction = List.of(Duration.ZERO, Duration.ofSeconds(2), Duration.ofSeconds(30)).get(random.nextInt(3));
        ClusterSettings clusterSettings = new ClusterSettings(members, layout, replicationFactor, Duration.ofSeconds(1), 8);
        coordinator = new FailoverCoordinator(LEADER, clusterSettings,
                ReplicationSettings.defaults().withHealCooldown(Duration.ofSeconds(1)).withEvictionDelay(eviction),
                probeDecorator.apply(new SimulatedProbe()), action -> schedule(now, "coordinator round", action),
                FakeTime.followingNanos(() -> now),
                node -> now - lastGrant.getOrDefault(node, Long.MIN_VALUE / 2) > LEASE,
                node -> now - lastGrant.getOrDefault(node, Long.MIN_VALUE / 2) > LEASE + SUSPEND_GRACE,
                node -> now - lastGrant.getOrDefault(node, Long.MIN_VALUE / 2) < LEASE);
        List<String> founders = new ArrayList<>(nodes.keySet()).subList(0, members);
        PartitionMap map = PartitionPlanner.plan(founders, PARTITIONS, replicationFactor, null);
        List<PartitionRuntime> runtimes = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            runtimes.add(new PartitionRuntime(map.primaryOf(p), 1, PartitionHealth.HEALTHY));
            acknowledged.put(p, new ArrayList<>());
        }
        Map<String, NodeAddress> addresses = new TreeMap<>();
        nodes.values().forEach(node -> addresses.put(node.id, node.address));
        published = new Envelope(++publications, new ClusterView(layout, map, new RuntimeMap(runtimes), addresses),
                new TreeSet<>(founders));
        for (String id : founders) {
            Node node = nodes.get(id);
            node.started = true;
            node.alive = true;
            node.leaseUntil = now + LEASE;
            lastBeat.put(id, now);
            lastGrant.put(id, now);
            knownIncarnation.put(id, 0);
            adopt(node, published);
        }
        scenario = ("members " + founders + ", replication factor " + replicationFactor + ", loss " + loss
                + ", max delay " + maxDelay / MS + " ms, eviction " + eviction + ", owners " + map.owners());
    }

    /** Runs the whole scenario; throws {@link Violation} at the first broken invariant. */
    FailoverSimulation run() {
        for (Node node : nodes.values()) {
            schedule(now + random.nextInt((int) (TICK / MS)) * MS, "tick " + node.id, () -> tick(node));
        }
        schedule(now + 5 * MS, "client", this::clientStep);
        schedule(now + 500 * MS, "fault", this::faultStep);
        long end = now + RUN_TIME;
        while (!queue.isEmpty() && queue.peek().time <= end) {
            Scheduled next = queue.poll();
            now = next.time;
            currentEvent = next.what;
            next.action.run();
            checkInvariants();
            if (queue.size() > 200_000) {
                throw violation("the event queue grew without bound (" + queue.size() + ")");
            }
        }
        return this;
    }

    // ---------------------------------------------------------------- scheduler and bus

    private void schedule(long at, String what, Runnable action) {
        queue.add(new Scheduled(at, ++sequence, what, action));
    }

    /** Sends from one node to another (null = a client, never cut off); the message may be lost or delayed. */
    private void send(String from, Node to, String what, Runnable onDelivery) {
        if (from != null && (cut(from, to.id) || random.nextDouble() < loss)) {
            return;
        }
        int incarnation = to.incarnation;
        long delay = (1 + random.nextInt((int) (maxDelay / MS))) * MS;
        if (random.nextInt(50) == 0) {
            delay += 300 * MS; // a late straggler
        }
        long at = now + delay;
        if (from != null) {
            // a link delivers in order, like the TCP connection it stands for
            at = Math.max(at, linkClear.getOrDefault(from + ">" + to.id, 0L));
            linkClear.put(from + ">" + to.id, at);
        }
        schedule(at, what + " → " + to.id, () -> {
            if (!to.alive || to.incarnation != incarnation) {
                return;
            }
            if (to.paused) {
                if (to.parked.size() < MAX_PARKED_MESSAGES) {
                    to.parked.add(onDelivery);
                }
                return;
            }
            onDelivery.run();
        });
    }

    private boolean cut(String a, String b) {
        return !side.isEmpty() && !side.getOrDefault(a, 0).equals(side.getOrDefault(b, 0));
    }

    // ---------------------------------------------------------------- node behaviour

    private void tick(Node node) {
        schedule(now + TICK, "tick " + node.id, () -> tick(node));
        if (!node.alive || node.paused) {
            return;
        }
        if (node.id.equals(LEADER)) {
            leaderTick(node);
        } else {
            int incarnation = node.incarnation;
            send(node.id, nodes.get(LEADER), "beat " + node.id, () -> beatArrived(node, incarnation));
        }
        node.pending.removeIf(write -> now > write.deadline());
        if (node.held == null) {
            return;
        }
        for (Map.Entry<Integer, Copy> entry : node.copies.entrySet()) {
            int p = entry.getKey();
            Copy copy = entry.getValue();
            PartitionRuntime runtime = node.held.view().runtimeMap().get(p);
            if (!node.id.equals(runtime.activeNode()) || copy.activeEpoch != runtime.epoch()) {
                continue;
            }
            if (!copy.gateOpen) {
                if (now >= copy.giveUpAt) {
                    openGate(copy);
                } else {
                    copy.awaitingPull.forEach(peer -> askToPull(node, p, runtime.epoch(), nodes.get(peer)));
                }
            } else if (node.serving(p)) {
                for (String owner : node.held.view().partitionMap().ownersOf(p)) {
                    if (!owner.equals(node.id)) {
                        ship(node, nodes.get(owner), p, runtime.epoch(), 0);
                    }
                }
            }
        }
    }

    private void adopt(Node node, Envelope envelope) {
        if (node.held != null && envelope.sequence() <= node.held.sequence()) {
            return;
        }
        Envelope previous = node.held;
        node.held = envelope;
        ClusterView view = envelope.view();
        if (previous == null && node.incarnation > 0 && node.inheritedRoles == null) {
            node.inheritedRoles = new TreeMap<>();
            for (int p = 0; p < PARTITIONS; p++) {
                if (node.id.equals(view.runtimeMap().get(p).activeNode())) {
                    node.inheritedRoles.put(p, view.runtimeMap().get(p).epoch());
                }
            }
        }
        for (int p = 0; p < PARTITIONS; p++) {
            PartitionRuntime runtime = view.runtimeMap().get(p);
            List<String> owners = view.partitionMap().ownersOf(p);
            boolean active = node.id.equals(runtime.activeNode());
            if (!owners.contains(node.id) && !active) {
                node.copies.remove(p); // no longer an owner: the copy is dropped
                seenEpochFloor.remove(node.id + "/" + p);
                continue;
            }
            Copy copy = node.copy(p);
            copy.seenEpoch = Math.max(copy.seenEpoch, runtime.epoch());
            boolean inherited = node.inheritedRoles != null && runtime.epoch() <= node.inheritedRoles.getOrDefault(p, 0L);
            if (active && !inherited && runtime.health() != PartitionHealth.UNAVAILABLE
                    && copy.activeEpoch != runtime.epoch()) {
                startTakeover(node, p, copy, runtime, previous, envelope);
            }
        }
        checkSeenEpochs(node);
    }

    /** The takeover catch-up: pull from every other owner that serves (and the previous active) before serving. */
    private void startTakeover(Node node, int p, Copy copy, PartitionRuntime runtime, Envelope previous, Envelope envelope) {
        copy.activeEpoch = runtime.epoch();
        copy.confirmed.clear();
        copy.awaitingPull.clear();
        Set<String> peers = new TreeSet<>(envelope.view().partitionMap().ownersOf(p));
        if (previous != null && previous.view().runtimeMap().get(p).activeNode() != null) {
            peers.add(previous.view().runtimeMap().get(p).activeNode());
        }
        for (String peer : peers) {
            if (!peer.equals(node.id) && envelope.view().serves(peer, envelope.present())) {
                copy.awaitingPull.add(peer);
            }
        }
        copy.giveUpAt = now + CATCH_UP_GIVE_UP;
        copy.gateOpen = false;
        if (copy.awaitingPull.isEmpty()) {
            openGate(copy);
        } else {
            copy.awaitingPull.forEach(peer -> askToPull(node, p, runtime.epoch(), nodes.get(peer)));
        }
    }

    private void openGate(Copy copy) {
        copy.gateOpen = true;
        copy.awaitingPull.clear();
        copy.completeEpoch = copy.activeEpoch;
        copy.seenEpoch = Math.max(copy.seenEpoch, copy.activeEpoch);
    }

    private void askToPull(Node taker, int p, long epoch, Node peer) {
        int takerIncarnation = taker.incarnation;
        send(taker.id, peer, "pull p" + p, () -> {
            Copy held = peer.copies.get(p);
            List<Long> tail = held == null ? List.of() : new ArrayList<>(held.writes);
            if (held != null) {
                held.seenEpoch = Math.max(held.seenEpoch, epoch); // the pull fences the previous active
                checkSeenEpochs(peer);
            }
            send(peer.id, taker, "pulled p" + p, () -> {
                Copy copy = taker.copies.get(p);
                if (taker.incarnation != takerIncarnation || copy == null || copy.activeEpoch != epoch || copy.gateOpen) {
                    return;
                }
                copy.addAll(tail);
                copy.awaitingPull.remove(peer.id);
                if (copy.awaitingPull.isEmpty()) {
                    openGate(copy);
                }
            });
        });
    }

    /** The active ships its whole copy to a replica; the replica applies it unless it saw a newer epoch. */
    private void ship(Node active, Node replica, int p, long epoch, long writeId) {
        List<Long> snapshot = new ArrayList<>(active.copies.get(p).writes);
        int activeIncarnation = active.incarnation;
        send(active.id, replica, "ship p" + p, () -> {
            Copy copy = replica.copy(p);
            if (epoch < copy.seenEpoch) {
                return; // fenced
            }
            copy.replaceWith(snapshot);
            copy.seenEpoch = epoch;
            copy.completeEpoch = epoch;
            int size = snapshot.size();
            send(replica.id, active, "confirm p" + p, () -> confirmed(active, activeIncarnation, replica.id, p, epoch,
                    size, writeId));
        });
    }

    private void confirmed(Node active, int incarnation, String replica, int p, long epoch, int size, long writeId) {
        Copy copy = active.copies.get(p);
        if (active.incarnation != incarnation || copy == null || copy.activeEpoch != epoch) {
            return;
        }
        copy.confirmed.merge(replica, size, Math::max);
        for (PendingWrite write : active.pending) {
            // past its deadline the client has given up: its own timer runs while this node is paused
            if (write.id() == writeId && write.epoch() == epoch && now <= write.deadline()) {
                write.acks().add(replica);
                if (write.acks().containsAll(write.required())) {
                    acknowledge(write.id(), p);
                }
            }
        }
        active.pending.removeIf(write -> write.acks().containsAll(write.required()));
    }

    private void acknowledge(long id, int p) {
        if (acknowledgedIds.add(id)) {
            acknowledged.get(p).add(id);
            writesAcknowledged++;
        }
    }

    // ---------------------------------------------------------------- the leader

    private void leaderTick(Node leader) {
        leader.leaseUntil = now + LEASE;
        lastBeat.put(LEADER, now);
        lastGrant.put(LEADER, now);
        if (now >= nextRoundAt) {
            nextRoundAt = now + ROUND_INTERVAL;
            Set<String> present = present();
            coordinator.reconcile(published.view(), present, () -> published.view(), next -> publish(next, present()));
        }
        for (Node node : nodes.values()) {
            if (!node.id.equals(LEADER) && node.started) {
                Envelope envelope = published;
                send(LEADER, node, "view", () -> adopt(node, envelope));
            }
        }
    }

    private Set<String> present() {
        Set<String> present = new TreeSet<>();
        lastBeat.forEach((node, beat) -> {
            if (now - beat <= DETECTION) {
                present.add(node);
            }
        });
        return present;
    }

    private void beatArrived(Node node, int incarnation) {
        lastBeat.put(node.id, now);
        lastGrant.put(node.id, now);
        long granted = now;
        if (incarnation > knownIncarnation.getOrDefault(node.id, -1)) {
            knownIncarnation.put(node.id, incarnation);
            if (incarnation > 0) {
                // a restarted process: the view may still name it active, for partitions it no longer holds
                Map<Integer, Long> roles = new TreeMap<>();
                for (int p = 0; p < PARTITIONS; p++) {
                    PartitionRuntime runtime = published.view().runtimeMap().get(p);
                    if (node.id.equals(runtime.activeNode())) {
                        roles.put(p, runtime.epoch());
                    }
                }
                coordinator.disown(node.id, roles, published.view());
            }
        }
        // a lease comes with the view it is granted under: the node adopts that first
        Envelope envelope = published;
        send(LEADER, node, "grant", () -> {
            adopt(node, envelope);
            node.leaseUntil = Math.max(node.leaseUntil, granted + LEASE);
        });
    }

    private void publish(ClusterView view, Set<String> present) {
        for (int p = 0; p < PARTITIONS; p++) {
            PartitionRuntime before = published.view().runtimeMap().get(p);
            PartitionRuntime after = view.runtimeMap().get(p);
            if (after.epoch() < highestPublishedEpoch[p]) {
                throw violation("partition " + p + ": published epoch " + after.epoch() + " after "
                        + highestPublishedEpoch[p]);
            }
            highestPublishedEpoch[p] = after.epoch();
            if (after.epoch() != before.epoch()) {
                countLostToFaults(p, present);
            }
            if (after.health() == PartitionHealth.DEGRADED && after.activeNode() != null
                    && !after.activeNode().equals(before.activeNode())) {
                checkPossessionProof(p, after, view);
            }
        }
        published = new Envelope(++publications, view, new TreeSet<>(present));
        long number = publications;
        trace(() -> "publish #" + number + " " + view.runtimeMap() + " owners " + view.partitionMap().owners());
        adopt(nodes.get(LEADER), published);
    }

    private void countLostToFaults(int p, Set<String> present) {
        Set<Long> surviving = new HashSet<>();
        for (String id : present) {
            Node node = nodes.get(id);
            Copy copy = node.alive && !published.view().suspended().contains(id) ? node.copies.get(p) : null;
            if (copy != null) {
                surviving.addAll(copy.writes);
            }
        }
        for (long id : acknowledged.get(p)) {
            if (!surviving.contains(id) && lostToFaults.add(id)) {
                trace(() -> "acknowledged write " + id + " of partition " + p + " lost: no member holds it");
            }
        }
    }

    /**
     * A copy that serves at once must hold every acknowledged write another owner's answer to the same round
     * showed: what the possession proof and the candidate order are for.
     */
    private void checkPossessionProof(int p, PartitionRuntime promoted, ClusterView view) {
        Set<Long> chosen = answered.getOrDefault(promoted.activeNode(), Map.of()).get(p);
        if (chosen == null) {
            return; // promoted without an answer of its own (a lone survivor): nothing to compare
        }
        for (String owner : view.partitionMap().ownersOf(p)) {
            Set<Long> theirs = answered.getOrDefault(owner, Map.of()).get(p);
            if (owner.equals(promoted.activeNode()) || theirs == null) {
                continue;
            }
            Set<Long> missing = new TreeSet<>(theirs);
            missing.removeAll(chosen);
            if (!missing.isEmpty()) {
                throw violation("partition " + p + " promoted to " + promoted.activeNode() + " serving now (" + promoted
                        + ") although " + owner + " answered holding acknowledged writes " + missing + " it lacks");
            }
        }
    }

    /** The leader's questions, answered by the modelled copies over the bus (or not at all, after a timeout). */
    private final class SimulatedProbe implements PeerProbe {
        @Override
        public CompletableFuture<Boolean> isReachable(NodeAddress address) {
            Node node = byAddress.get(address);
            CompletableFuture<Boolean> answer = new CompletableFuture<>();
            schedule(now + PROBE_TIMEOUT, "probe timeout", () -> answer.complete(false));
            send(LEADER, node, "reachable?", () -> send(node.id, nodes.get(LEADER), "reachable", () -> answer.complete(true)));
            return answer;
        }

        @Override
        public CompletableFuture<Map<Integer, PartitionState>> partitionStates(NodeAddress address,
                                                                              Collection<Integer> partitions) {
            Node node = byAddress.get(address);
            CompletableFuture<Map<Integer, PartitionState>> answer = new CompletableFuture<>();
            schedule(now + PROBE_TIMEOUT, "states timeout", () -> answer.complete(Map.of()));
            List<Integer> asked = List.copyOf(partitions);
            if (roundAskedAt != now) {
                roundAskedAt = now;
                answered.clear(); // a new round: only its own answers count
            }
            long askedAt = now;
            send(LEADER, node, "states?", () -> {
                Map<Integer, PartitionState> states = new TreeMap<>();
                Map<Integer, Set<Long>> held = new TreeMap<>();
                for (int p : asked) {
                    states.put(p, stateOf(node, p));
                    Copy copy = node.copies.get(p);
                    Set<Long> acked = new TreeSet<>();
                    if (copy != null) {
                        copy.writes.stream().filter(acknowledgedIds::contains).forEach(acked::add);
                    }
                    held.put(p, acked);
                }
                send(node.id, nodes.get(LEADER), "states", () -> {
                    if (!answer.isDone() && askedAt == roundAskedAt) {
                        answered.computeIfAbsent(node.id, n -> new HashMap<>()).putAll(held);
                        trace(() -> node.id + " answers " + states);
                        answer.complete(states);
                    }
                });
            });
            return answer;
        }
    }

    private PartitionState stateOf(Node node, int p) {
        Copy copy = node.copies.get(p);
        if (copy == null) {
            return new PartitionState(0, 0, 0, 0, 0);
        }
        Set<String> keys = new HashSet<>();
        copy.writes.forEach(id -> keys.add(keyOf.get(id)));
        int synced = copy.completeEpoch == copy.seenEpoch && copy.completeEpoch > 0 ? 1 : 0;
        int confirmedReplicas = 0;
        if (node.serving(p)) {
            for (String owner : node.held.view().partitionMap().ownersOf(p)) {
                if (!owner.equals(node.id) && copy.confirmed.getOrDefault(owner, -1) == copy.writes.size()) {
                    confirmedReplicas++;
                }
            }
        }
        return new PartitionState(copy.seenEpoch, copy.writes.size(), keys.size(), synced, confirmedReplicas);
    }

    // ---------------------------------------------------------------- clients

    private void clientStep() {
        schedule(now + (5 + random.nextInt(25)) * MS, "client", this::clientStep);
        int p = random.nextInt(PARTITIONS);
        String key = p + ":" + random.nextInt(KEYS_PER_PARTITION);
        String target = published.view().runtimeMap().get(p).activeNode();
        if (target == null) {
            return;
        }
        Node node = nodes.get(target);
        if (random.nextInt(3) > 0) {
            long id = ++nextWriteId;
            keyOf.put(id, key);
            send(null, node, "write " + id, () -> write(node, p, id));
        } else {
            int acknowledgedBefore = acknowledged.get(p).size();
            send(null, node, "read " + key, () -> read(node, p, key, acknowledgedBefore));
        }
    }

    private void write(Node node, int p, long id) {
        if (!node.serving(p) || node.pending.size() >= MAX_PENDING_WRITES) {
            return; // refused: the client sees an error, nothing is acknowledged
        }
        Copy copy = node.copies.get(p);
        copy.writes.add(id);
        copy.mutations++;
        ClusterView view = node.held.view();
        Set<String> required = new TreeSet<>();
        for (String owner : view.partitionMap().ownersOf(p)) {
            if (!owner.equals(node.id) && view.serves(owner, node.held.present())) {
                required.add(owner);
            }
        }
        long epoch = view.runtimeMap().get(p).epoch();
        if (required.isEmpty()) {
            acknowledge(id, p);
            return;
        }
        node.pending.add(new PendingWrite(id, p, epoch, required, new HashSet<>(), now + WRITE_TIMEOUT));
        required.forEach(owner -> ship(node, nodes.get(owner), p, epoch, id));
    }

    private void read(Node node, int p, String key, int acknowledgedBefore) {
        if (!node.serving(p)) {
            return;
        }
        long floor = acknowledged.get(p).subList(0, acknowledgedBefore).stream()
                .filter(id -> key.equals(keyOf.get(id)) && !lostToFaults.contains(id)).mapToLong(Long::longValue).max().orElse(0);
        long value = node.copies.get(p).writes.stream().filter(id -> key.equals(keyOf.get(id)))
                .mapToLong(Long::longValue).max().orElse(0);
        readsServed++;
        if (value < floor) {
            throw violation("read of " + key + " on " + node.id + " returned write " + value
                    + " although write " + floor + " was acknowledged before the read was sent");
        }
    }

    // ---------------------------------------------------------------- faults

    private void faultStep() {
        schedule(now + (200 + random.nextInt(800)) * MS, "fault", this::faultStep);
        List<Node> others = nodes.values().stream().filter(n -> !n.id.equals(LEADER) && n.started).toList();
        Node victim = others.get(random.nextInt(others.size()));
        switch (random.nextInt(9)) {
            case 0 -> {
                victim.alive = false;
                victim.paused = false;
                trace("crash " + victim.id);
            }
            case 1 -> {
                if (!victim.alive) {
                    restart(victim);
                }
            }
            case 2 -> {
                if (victim.alive && !victim.paused) {
                    victim.paused = true;
                    trace("pause " + victim.id);
                    schedule(now + (200 + random.nextInt(4000)) * MS, "resume " + victim.id, () -> resume(victim));
                }
            }
            case 3 -> {
                side.clear();
                for (Node node : nodes.values()) {
                    side.put(node.id, node.id.equals(LEADER) ? 0 : random.nextInt(2));
                }
                trace("cut " + side);
                schedule(now + (500 + random.nextInt(4000)) * MS, "heal", () -> {
                    side.clear();
                    trace("heal the cut");
                });
            }
            case 4 -> {
                Node spare = nodes.values().stream().filter(n -> !n.started).findFirst().orElse(null);
                if (spare != null) {
                    spare.started = true;
                    spare.alive = true;
                    trace("join " + spare.id);
                    schedule(now, "tick " + spare.id, () -> tick(spare));
                }
            }
            case 5 -> {
                if (victim.alive) {
                    coordinator.drainRequested(victim.id);
                    trace("drain " + victim.id);
                }
            }
            default -> {
                for (Node node : others) {
                    if (!node.alive && random.nextBoolean()) {
                        restart(node);
                    }
                }
            }
        }
    }

    private void restart(Node node) {
        node.alive = true;
        node.paused = false;
        node.incarnation++;
        node.held = null;
        node.inheritedRoles = null;
        node.leaseUntil = Long.MIN_VALUE;
        node.copies.clear();
        node.pending.clear();
        node.parked.clear();
        seenEpochFloor.keySet().removeIf(key -> key.startsWith(node.id + "/"));
        trace("restart " + node.id + " (empty)");
    }

    private void resume(Node node) {
        if (!node.paused) {
            return;
        }
        node.paused = false;
        trace("resume " + node.id);
        while (!node.parked.isEmpty() && node.alive && !node.paused) {
            node.parked.poll().run();
        }
    }

    private void trace(String line) {
        trace(() -> line);
    }

    private void trace(Supplier<String> line) {
        long at = (now - clock[0]) / MS;
        trace.add(() -> String.format("%6d ms %s", at, line.get()));
        if (trace.size() > 30) {
            trace.poll();
        }
    }

    // ---------------------------------------------------------------- invariants

    private void checkInvariants() {
        for (int p = 0; p < PARTITIONS; p++) {
            Map<Long, String> servingByEpoch = new HashMap<>();
            List<Long> acked = acknowledged.get(p);
            for (Node node : nodes.values()) {
                if (!node.serving(p)) {
                    continue;
                }
                long epoch = node.held.view().runtimeMap().get(p).epoch();
                String other = servingByEpoch.put(epoch, node.id);
                if (other != null) {
                    throw violation("partition " + p + " has two serving actives under epoch " + epoch + ": " + other
                            + " and " + node.id);
                }
                Copy copy = node.copies.get(p);
                int from = copy.checkedMutations == copy.mutations ? copy.checkedAcknowledged : 0;
                for (int i = from; i < acked.size(); i++) {
                    if (!copy.writes.contains(acked.get(i)) && !lostToFaults.contains(acked.get(i))) {
                        throw violation("partition " + p + ": " + node.id + " serves under epoch " + epoch
                                + " without acknowledged write " + acked.get(i));
                    }
                }
                copy.checkedMutations = copy.mutations;
                copy.checkedAcknowledged = acked.size();
            }
        }
    }

    private void checkSeenEpochs(Node node) {
        for (Map.Entry<Integer, Copy> entry : node.copies.entrySet()) {
            String key = node.id + "/" + entry.getKey();
            long floor = seenEpochFloor.getOrDefault(key, 0L);
            if (entry.getValue().seenEpoch < floor) {
                throw violation(node.id + " went back from epoch " + floor + " to " + entry.getValue().seenEpoch
                        + " of partition " + entry.getKey());
            }
            seenEpochFloor.put(key, entry.getValue().seenEpoch);
        }
    }

    private Violation violation(String what) {
        return new Violation("seed " + seed + " at " + (now - clock[0]) / MS + " ms (" + currentEvent + "): " + what
                + "\n  replay: " + replayCommand(seed) + "\n  last steps:\n    "
                + scenario + "\n    " + String.join("\n    ", trace.stream().map(Supplier::get).toList()));
    }

    static String replayCommand(long seed) {
        return "mvn -pl zaris-engine test -Dtest=FailoverSimulationTests -Dsimulation.seed=" + seed;
    }
}
