package io.zaris.placement;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * Computes the partition map as a pure function of (members, partition count, replication factor,
 * previous map). No I/O, clocks or randomness.
 *
 * <p><b>Guarantees.</b> With {@code N} members, {@code P} partitions and {@code r = min(replicationFactor, N)}:
 * <ul>
 *   <li>every partition gets exactly {@code r} distinct members, preferred primary first;</li>
 *   <li>every member holds between {@code floor(P*r/N)} and {@code ceil(P*r/N)} owner slots;</li>
 *   <li>every member is preferred primary of at most {@code ceil(P/N)} partitions, and of at least
 *       {@code floor(P/N)} whenever the owner sets allow it;</li>
 *   <li>among all maps within those owner-slot bounds, the result keeps the most previous
 *       (partition, member) pairs: the fewest copies of data move;</li>
 *   <li>among all primary choices over the chosen owners that give each member the same number of
 *       primaries, the result changes the fewest preferred primaries;</li>
 *   <li>the result depends only on the set of member ids, not on the iteration order of {@code members};</li>
 *   <li>the version is 1 for a first map and {@code previous.version() + 1} otherwise.</li>
 * </ul>
 * Moving data outranks moving a primary role: a replica already holds the data, so the planner never moves
 * an owner slot to save a primary change.
 *
 * <p>The work happens in two steps, each a nested class: {@link OwnerSlots} picks who holds each
 * partition, then {@link PrimaryChoice} picks which owner is the preferred primary. Both bounds are always
 * reachable: owner slots by a round-robin argument, primaries by Hall's theorem, because a set of {@code k}
 * partitions has at least {@code k*r/ceil(P*r/N)} distinct owners and {@code ceil(P*r/N) <= r*ceil(P/N)}.
 */
public final class PartitionPlanner {

    private PartitionPlanner() {
    }

    /**
     * Plans the next partition map.
     *
     * @param members           ids of the current members, non-blank and distinct, in any order
     * @param partitionCount    number of partitions, {@code >= 1}; must equal {@code previous.partitionCount()}
     * @param replicationFactor configured copies per partition, {@code >= 1}
     * @param previous          the map in force, or {@code null} for the first map of a cluster
     */
    public static PartitionMap plan(Collection<String> members, int partitionCount, int replicationFactor,
            PartitionMap previous) {
        String[] nodes = sortedMembers(members);
        if (partitionCount < 1) {
            throw new IllegalArgumentException("partitionCount must be >= 1 but was " + partitionCount);
        }
        if (replicationFactor < 1) {
            throw new IllegalArgumentException("replicationFactor must be >= 1 but was " + replicationFactor);
        }
        if (previous != null && previous.partitionCount() != partitionCount) {
            throw new IllegalArgumentException("previous map has " + previous.partitionCount()
                    + " partitions but partitionCount is " + partitionCount);
        }
        int copies = Math.min(replicationFactor, nodes.length);
        OwnerSlots slots = new OwnerSlots(nodes.length, partitionCount, copies);
        if (previous != null) {
            slots.keep(nodes, previous);
        }
        slots.shedAboveBounds();
        slots.fillVacancies();
        new PrimaryChoice(nodes, slots.owners, slots.previousPrimary).balance();
        List<List<String>> owners = new ArrayList<>(partitionCount);
        for (int[] partitionOwners : slots.owners) {
            List<String> ids = new ArrayList<>(copies);
            for (int node : partitionOwners) {
                ids.add(nodes[node]);
            }
            owners.add(ids);
        }
        long version = previous == null ? 1 : Math.addExact(previous.version(), 1);
        return new PartitionMap(version, replicationFactor, owners);
    }

    private static String[] sortedMembers(Collection<String> members) {
        if (members == null || members.isEmpty()) {
            throw new IllegalArgumentException("members must not be empty");
        }
        TreeSet<String> sorted = new TreeSet<>();
        for (String id : members) {
            if (id == null || id.isBlank()) {
                throw new IllegalArgumentException("member ids must not be null or blank");
            }
            if (!sorted.add(id)) {
                throw new IllegalArgumentException("member " + id + " is listed twice");
            }
        }
        return sorted.toArray(new String[0]);
    }

    private static int indexOf(int[] partitionOwners, int size, int node) {
        for (int position = 0; position < size; position++) {
            if (partitionOwners[position] == node) {
                return position;
            }
        }
        return -1;
    }

    /**
     * Chooses the owners of every partition as a min-cost flow. Nodes are indexes into the sorted members.
     *
     * <p><b>Network.</b> Source to partition (capacity {@code r}); partition to node (capacity 1, cost 0 if
     * the node owned the partition before, else 1); node to sink (capacity {@code floor}, all of it needed);
     * node to an overflow vertex (capacity {@code ceil - floor}); overflow to sink (capacity
     * {@code P*r - N*floor}, the number of nodes that end one above the floor). A full flow is a map within
     * the owner-slot bounds, and its cost is the number of owner slots that move.
     *
     * <p><b>Algorithm.</b> Every cost is non-negative, so the previous pairs that still fit (each node at most
     * at the ceiling, at most {@code P*r - N*floor} nodes above the floor) are a min-cost flow of their value.
     * Successive cheapest augmenting paths fill the vacancies and keep the flow min-cost. A cheapest path of
     * cost 1 is usually one vacancy taken by one node with room; it is then picked by a balance heuristic:
     * the least-loaded node (for an empty partition, the one expected to hold the fewest primaries), ties
     * broken by a rotation that starts at the partition index and, for replicas, moves one more step per
     * round of {@code N} partitions, so a node's replicas spread over different peers. Otherwise SPFA over
     * the residual graph finds a path that moves as few existing slots as possible to make room.
     *
     * <p>{@code load} and {@code primaries} always agree with {@code owners}: every edit goes through
     * {@link #append}, {@link #removeAt} or {@link #replaceAt}. Until {@link #fillVacancies} ends, a
     * partition may hold fewer than {@code copies} owners ({@code size[p]}).
     */
    private static final class OwnerSlots {

        /** Flow vertex of the source; partition p is {@code 1 + p}, node n is {@code 1 + P + n}. */
        private static final int SOURCE = 0;

        private final int nodeCount;
        private final int partitionCount;
        private final int copies;
        /** {@code owners[p][0..size[p])}: node indexes of partition p, preferred primary first. */
        final int[][] owners;
        private final int[] size;
        /** Owner slots held per node. */
        private final int[] load;
        /** Partitions per node where it is {@code owners[p][0]}. */
        private final int[] primaries;
        /** Previous owners of each partition that are still members, in previous order. */
        private final int[][] previousOwners;
        /** Previous preferred primary of each partition if it is still a member, else -1. */
        final int[] previousPrimary;
        /**
         * Primaries each node keeps from the previous map, plus those it is expected to take in partitions
         * filled so far whose primary changes anyway. Steers the balance heuristic only.
         */
        private final int[] claims;
        private final int loadFloor;
        private final int loadCeiling;
        /** How many nodes end at {@code loadCeiling} when it is above {@code loadFloor}. */
        private final int nodesAboveFloor;
        private final int primaryFloor;
        private final int primaryCeiling;
        private final int overflowVertex;
        private final int sinkVertex;
        /** SPFA state, reused by every {@link #cheapestPath} call. */
        private final int[] distance;
        private final int[] parent;
        private final int[] enqueued;
        private final boolean[] queued;
        private final ArrayDeque<Integer> queue = new ArrayDeque<>();

        OwnerSlots(int nodeCount, int partitionCount, int copies) {
            this.nodeCount = nodeCount;
            this.partitionCount = partitionCount;
            this.copies = copies;
            this.owners = new int[partitionCount][copies];
            this.size = new int[partitionCount];
            this.load = new int[nodeCount];
            this.primaries = new int[nodeCount];
            this.previousOwners = new int[partitionCount][0];
            this.previousPrimary = new int[partitionCount];
            Arrays.fill(previousPrimary, -1);
            this.claims = new int[nodeCount];
            long slots = (long) partitionCount * copies;
            this.loadFloor = (int) (slots / nodeCount);
            this.loadCeiling = (int) ((slots + nodeCount - 1) / nodeCount);
            this.nodesAboveFloor = (int) (slots - (long) loadFloor * nodeCount);
            this.primaryFloor = partitionCount / nodeCount;
            this.primaryCeiling = (int) (((long) partitionCount + nodeCount - 1) / nodeCount);
            this.overflowVertex = 1 + partitionCount + nodeCount;
            this.sinkVertex = overflowVertex + 1;
            this.distance = new int[sinkVertex + 1];
            this.parent = new int[sinkVertex + 1];
            this.enqueued = new int[sinkVertex + 1];
            this.queued = new boolean[sinkVertex + 1];
        }

        /** Starts from the previous owners that are still members, in their previous order, up to r. */
        void keep(String[] nodes, PartitionMap previous) {
            for (int p = 0; p < partitionCount; p++) {
                List<String> ids = previous.ownersOf(p);
                int[] members = new int[ids.size()];
                int count = 0;
                for (String id : ids) {
                    int node = Arrays.binarySearch(nodes, id);
                    if (node >= 0) {
                        members[count++] = node;
                    }
                }
                previousOwners[p] = Arrays.copyOf(members, count);
                previousPrimary[p] = Math.max(-1, Arrays.binarySearch(nodes, ids.get(0)));
                for (int i = 0; i < count && size[p] < copies; i++) {
                    append(p, members[i]);
                }
            }
        }

        /**
         * Drops kept slots until every node is at most at the ceiling and at most {@link #nodesAboveFloor}
         * nodes are above the floor, so that the kept pairs are a feasible flow.
         */
        void shedAboveBounds() {
            int[] mustGive = new int[nodeCount];
            int[] mayGive = new int[nodeCount];
            for (int node = 0; node < nodeCount; node++) {
                mustGive[node] = Math.max(0, primaries[node] - primaryCeiling);
                mayGive[node] = Math.max(0, primaries[node] - primaryFloor);
            }
            int aboveFloor = 0;
            for (int node = 0; node < nodeCount; node++) {
                int limit = loadFloor;
                if (load[node] > loadFloor && aboveFloor < nodesAboveFloor) {
                    limit = loadCeiling;
                    aboveFloor++;
                }
                shedDownTo(node, limit, mustGive, mayGive);
            }
        }

        /**
         * Fills every vacancy along a cheapest augmenting path. {@code cheapest} is a lower bound on the cost
         * of any augmenting path and never decreases, so once it is 1, a single new (partition, node) pair
         * is a cheapest path and the balance heuristic may choose it.
         */
        void fillVacancies() {
            int vacancies = 0;
            for (int p = 0; p < partitionCount; p++) {
                vacancies += copies - size[p];
                if (size[p] > 0 && owners[p][0] == previousPrimary[p]) {
                    claims[owners[p][0]]++;
                }
            }
            int cheapest = anyUnusedPreviousPair() ? 0 : 1;
            int cursor = 0;
            while (vacancies > 0) {
                while (size[cursor] == copies) {
                    cursor++;
                }
                if (cheapest == 1 && fillDirectly(cursor)) {
                    vacancies--;
                    continue;
                }
                int[] path = cheapestPath();
                if (path[0] > cheapest) {
                    cheapest = path[0];
                    if (cheapest == 1) {
                        continue;
                    }
                }
                augment(path);
                vacancies--;
            }
        }

        private void shedDownTo(int node, int limit, int[] mustGive, int[] mayGive) {
            if (load[node] <= limit) {
                return;
            }
            List<Integer> held = new ArrayList<>(load[node]);
            for (int p = 0; p < partitionCount; p++) {
                if (indexOf(owners[p], size[p], node) >= 0) {
                    held.add(p);
                }
            }
            while (load[node] > limit) {
                int best = -1;
                for (int p : held) {
                    if (indexOf(owners[p], size[p], node) >= 0
                            && (best < 0 || shedsBetter(node, p, best, mustGive, mayGive))) {
                        best = p;
                    }
                }
                int position = indexOf(owners[best], size[best], node);
                int primary = owners[best][0];
                if (position > 0) {
                    mustGive[primary] = Math.max(0, mustGive[primary] - 1);
                    mayGive[primary] = Math.max(0, mayGive[primary] - 1);
                }
                removeAt(best, position);
            }
        }

        /**
         * Which of {@code node}'s slots to give up first: a replica slot before a primary slot; a partition
         * not yet short of owners; a partition whose primary has primaries to give away, above the ceiling
         * first, then above the floor (whoever fills the vacancy can then take over that primary role
         * directly); the deepest replica; the lowest partition.
         */
        private boolean shedsBetter(int node, int p, int other, int[] mustGive, int[] mayGive) {
            int position = indexOf(owners[p], size[p], node);
            int otherPosition = indexOf(owners[other], size[other], node);
            if ((position == 0) != (otherPosition == 0)) {
                return position != 0;
            }
            boolean isShort = size[p] < copies;
            if (isShort != (size[other] < copies)) {
                return !isShort;
            }
            int relief = position == 0 ? 0 : relief(owners[p][0], mustGive, mayGive);
            int otherRelief = otherPosition == 0 ? 0 : relief(owners[other][0], mustGive, mayGive);
            if (relief != otherRelief) {
                return relief > otherRelief;
            }
            if (position != otherPosition) {
                return position > otherPosition;
            }
            return p < other;
        }

        private static int relief(int primary, int[] mustGive, int[] mayGive) {
            return mustGive[primary] > 0 ? 2 : mayGive[primary] > 0 ? 1 : 0;
        }

        /** Whether some vacancy could go back to a previous owner: the only way to a path of cost 0. */
        private boolean anyUnusedPreviousPair() {
            for (int p = 0; p < partitionCount; p++) {
                if (size[p] < copies && size[p] < previousOwners[p].length) {
                    return true;
                }
            }
            return false;
        }

        /**
         * Gives one vacancy, in the first partition from {@code cursor} where that is possible, to a node
         * with room; false when every vacancy needs an existing slot to move first.
         */
        private boolean fillDirectly(int cursor) {
            boolean mayRise = countAboveFloor() < nodesAboveFloor;
            for (int p = cursor; p < partitionCount; p++) {
                if (size[p] == copies) {
                    continue;
                }
                boolean open = size[p] == 0 || owners[p][0] != previousPrimary[p];
                int node = leastLoadedWithRoom(p, open, mayRise);
                if (node >= 0) {
                    append(p, node);
                    if (open && size[p] == copies) {
                        claimPrimary(p);
                    }
                    return true;
                }
            }
            return false;
        }

        /**
         * The node outside {@code p} that should take its next slot, or -1. A node has room below the
         * floor, or at the floor while fewer than {@link #nodesAboveFloor} nodes are above it.
         */
        private int leastLoadedWithRoom(int p, boolean open, boolean mayRise) {
            boolean primarySlot = size[p] == 0;
            int start = primarySlot ? p % nodeCount : (int) ((p + 1L + p / nodeCount) % nodeCount);
            int best = -1;
            for (int step = 0; step < nodeCount; step++) {
                int node = (start + step) % nodeCount;
                boolean room = load[node] < loadFloor || mayRise && load[node] < loadCeiling;
                if (room && indexOf(owners[p], size[p], node) < 0
                        && (best < 0 || lighter(node, best, primarySlot, open))) {
                    best = node;
                }
            }
            return best;
        }

        /**
         * For a primary slot, fewer expected primaries first; then fewer owner slots; where the partition's
         * primary changes anyway, fewer expected primaries break the remaining ties.
         */
        private boolean lighter(int node, int other, boolean primarySlot, boolean open) {
            if (primarySlot && claims[node] != claims[other]) {
                return claims[node] < claims[other];
            }
            if (load[node] != load[other]) {
                return load[node] < load[other];
            }
            return open && claims[node] < claims[other];
        }

        /** The owner of a newly filled partition whose primary changes that will most likely take it. */
        private void claimPrimary(int p) {
            int claimant = owners[p][0];
            for (int position = 1; position < size[p]; position++) {
                if (claims[owners[p][position]] < claims[claimant]) {
                    claimant = owners[p][position];
                }
            }
            claims[claimant]++;
        }

        private int countAboveFloor() {
            int count = 0;
            for (int node = 0; node < nodeCount; node++) {
                if (load[node] > loadFloor) {
                    count++;
                }
            }
            return count;
        }

        /**
         * A cheapest augmenting path, by SPFA over the residual graph, as {@code [cost, source, ..., sink]}.
         * Residual edges: source to a partition with a vacancy; partition to a node outside it (cost 0 for a
         * previous owner, else 1); node to a partition it owns (it gives that slot up: minus the same cost);
         * node to the sink while below the floor, or to the overflow vertex while below the ceiling; overflow
         * to the sink while fewer than {@link #nodesAboveFloor} nodes are above the floor, and to any node
         * above the floor (which then gives up a slot). The flow is min-cost, so there is no negative cycle.
         */
        private int[] cheapestPath() {
            Arrays.fill(distance, Integer.MAX_VALUE);
            Arrays.fill(enqueued, 0);
            distance[SOURCE] = 0;
            queue.add(SOURCE);
            boolean overflowToSink = countAboveFloor() < nodesAboveFloor;
            while (!queue.isEmpty()) {
                int vertex = queue.poll();
                queued[vertex] = false;
                int base = distance[vertex];
                if (vertex == SOURCE) {
                    for (int p = 0; p < partitionCount; p++) {
                        if (size[p] < copies) {
                            relax(vertex, 1 + p, base);
                        }
                    }
                } else if (vertex <= partitionCount) {
                    int p = vertex - 1;
                    for (int node = 0; node < nodeCount; node++) {
                        if (indexOf(owners[p], size[p], node) < 0) {
                            relax(vertex, nodeVertex(node), base + pairCost(p, node));
                        }
                    }
                } else if (vertex < overflowVertex) {
                    int node = vertex - 1 - partitionCount;
                    for (int q = 0; q < partitionCount; q++) {
                        if (indexOf(owners[q], size[q], node) >= 0) {
                            relax(vertex, 1 + q, base - pairCost(q, node));
                        }
                    }
                    if (load[node] < loadFloor) {
                        relax(vertex, sinkVertex, base);
                    } else if (load[node] < loadCeiling) {
                        relax(vertex, overflowVertex, base);
                    }
                } else if (vertex == overflowVertex) {
                    if (overflowToSink) {
                        relax(vertex, sinkVertex, base);
                    }
                    for (int node = 0; node < nodeCount; node++) {
                        if (load[node] > loadFloor) {
                            relax(vertex, nodeVertex(node), base);
                        }
                    }
                }
            }
            if (distance[sinkVertex] == Integer.MAX_VALUE) {
                throw new IllegalStateException("no augmenting path although the owner-slot bounds are reachable");
            }
            int length = 1;
            for (int vertex = sinkVertex; vertex != SOURCE; vertex = parent[vertex]) {
                if (++length > distance.length) {
                    throw new IllegalStateException("augmenting path does not lead back to the source");
                }
            }
            int[] path = new int[length + 1];
            path[0] = distance[sinkVertex];
            for (int vertex = sinkVertex, i = length; i >= 1; vertex = parent[vertex], i--) {
                path[i] = vertex;
            }
            return path;
        }

        private void relax(int from, int to, int candidate) {
            if (candidate >= distance[to]) {
                return;
            }
            distance[to] = candidate;
            parent[to] = from;
            if (to != sinkVertex && !queued[to]) {
                if (++enqueued[to] > distance.length) {
                    throw new IllegalStateException("negative cycle in the residual graph");
                }
                queued[to] = true;
                queue.add(to);
            }
        }

        /**
         * Applies a path from {@link #cheapestPath}: (source, p, n) appends n to p; (n', q, n) gives n the
         * slot of q that n' held. Overflow and sink edges need no edit: loads carry them.
         */
        private void augment(int[] path) {
            for (int i = 2; i < path.length - 1; i++) {
                if (path[i] > partitionCount) {
                    continue;
                }
                int p = path[i] - 1;
                int taker = path[i + 1] - 1 - partitionCount;
                if (path[i - 1] == SOURCE) {
                    append(p, taker);
                } else {
                    int giver = path[i - 1] - 1 - partitionCount;
                    replaceAt(p, indexOf(owners[p], size[p], giver), taker);
                }
            }
        }

        private int pairCost(int p, int node) {
            for (int owner : previousOwners[p]) {
                if (owner == node) {
                    return 0;
                }
            }
            return 1;
        }

        private int nodeVertex(int node) {
            return 1 + partitionCount + node;
        }

        private void append(int p, int node) {
            owners[p][size[p]++] = node;
            load[node]++;
            if (size[p] == 1) {
                primaries[node]++;
            }
        }

        private void removeAt(int p, int position) {
            int node = owners[p][position];
            System.arraycopy(owners[p], position + 1, owners[p], position, size[p] - position - 1);
            size[p]--;
            load[node]--;
            if (position == 0) {
                primaries[node]--;
                if (size[p] > 0) {
                    primaries[owners[p][0]]++;
                }
            }
        }

        private void replaceAt(int p, int position, int node) {
            int replaced = owners[p][position];
            owners[p][position] = node;
            load[replaced]--;
            load[node]++;
            if (position == 0) {
                primaries[replaced]--;
                primaries[node]++;
            }
        }
    }

    /**
     * Chooses the preferred primary of every partition among its (now fixed) owners, by reordering each
     * owner list in place.
     *
     * <p><b>Cost.</b> The number of partitions whose primary differs from the previous one. Handing
     * partition q from its primary a to its owner b costs +1 if a was q's previous primary, -1 if b was,
     * else 0. The start (every partition keeps its previous primary where possible, the others take the
     * owner with the fewest primaries) is the cheapest choice for its primary counts; moving one primary from
     * node x to node y along a cheapest chain of hand-overs keeps that property for the new counts. Nodes
     * above {@code ceil(P/N)} give primaries away first (always possible, by Hall's theorem), preferring
     * receivers below {@code floor(P/N)}; nodes still below the floor then receive from nodes above it.
     */
    private static final class PrimaryChoice {

        private final String[] nodes;
        private final int nodeCount;
        private final int[][] owners;
        private final int[] previousPrimary;
        private final int[] primaries;
        private final int primaryFloor;
        private final int primaryCeiling;

        PrimaryChoice(String[] nodes, int[][] owners, int[] previousPrimary) {
            this.nodes = nodes;
            this.nodeCount = nodes.length;
            this.owners = owners;
            this.previousPrimary = previousPrimary;
            this.primaries = new int[nodeCount];
            this.primaryFloor = owners.length / nodeCount;
            this.primaryCeiling = (int) (((long) owners.length + nodeCount - 1) / nodeCount);
        }

        void balance() {
            startFromPreviousPrimaries();
            for (int node = 0; node < nodeCount; node++) {
                while (primaries[node] > primaryCeiling) {
                    if (!handOver(node, true)) {
                        throw new IllegalStateException("cannot bring node " + nodes[node] + " down to "
                                + primaryCeiling + " primaries");
                    }
                }
            }
            for (int node = 0; node < nodeCount; node++) {
                while (primaries[node] < primaryFloor && handOver(node, false)) {
                    // each hand-over gives node one more primary
                }
            }
        }

        private void startFromPreviousPrimaries() {
            boolean[] open = new boolean[owners.length];
            for (int p = 0; p < owners.length; p++) {
                int previous = previousPrimary[p];
                if (previous >= 0 && indexOf(owners[p], owners[p].length, previous) >= 0) {
                    moveToFront(p, previous);
                    primaries[previous]++;
                } else {
                    open[p] = true;
                }
            }
            for (int p = 0; p < owners.length; p++) {
                if (open[p]) {
                    int best = owners[p][0];
                    for (int owner : owners[p]) {
                        if (primaries[owner] < primaries[best]) {
                            best = owner;
                        }
                    }
                    moveToFront(p, best);
                    primaries[best]++;
                }
            }
        }

        /**
         * Moves one primary along the cheapest chain {@code n0 -q1-> n1 -q2-> ... -qk-> nk}, in which each
         * {@code n(i)} already owns {@code q(i)} and becomes its primary in place of {@code n(i-1)}: only
         * {@code n0} ends with one primary fewer and {@code nk} with one more (Bellman-Ford; ties go to the
         * better end, then the shorter chain).
         *
         * @param origin {@code n0} when {@code giving}, else {@code nk}
         * @param giving whether {@code origin} gives a primary to a node below the ceiling, or receives one
         *               from a node above the floor
         * @return false when no chain exists
         */
        private boolean handOver(int origin, boolean giving) {
            int[] cost = new int[nodeCount];
            int[] hops = new int[nodeCount];
            int[] parent = new int[nodeCount];
            int[] via = new int[nodeCount];
            Arrays.fill(cost, Integer.MAX_VALUE);
            cost[origin] = 0;
            for (int round = 0; round < nodeCount; round++) {
                boolean relaxed = false;
                for (int q = 0; q < owners.length; q++) {
                    int primary = owners[q][0];
                    for (int position = 1; position < owners[q].length; position++) {
                        int replica = owners[q][position];
                        int from = giving ? primary : replica;
                        int to = giving ? replica : primary;
                        if (cost[from] == Integer.MAX_VALUE) {
                            continue;
                        }
                        int candidate = cost[from] + handOverCost(q, primary, replica);
                        if (candidate < cost[to] || candidate == cost[to] && hops[from] + 1 < hops[to]) {
                            cost[to] = candidate;
                            hops[to] = hops[from] + 1;
                            parent[to] = from;
                            via[to] = q;
                            relaxed = true;
                        }
                    }
                }
                if (!relaxed) {
                    break;
                }
            }
            int end = -1;
            for (int node = 0; node < nodeCount; node++) {
                boolean canEnd = giving ? primaries[node] < primaryCeiling : primaries[node] > primaryFloor;
                if (node != origin && cost[node] != Integer.MAX_VALUE && canEnd
                        && (end < 0 || endsBetter(node, end, cost, hops, giving))) {
                    end = node;
                }
            }
            if (end < 0) {
                return false;
            }
            primaries[giving ? origin : end]--;
            primaries[giving ? end : origin]++;
            for (int node = end, steps = 0; node != origin; steps++) {
                if (steps > nodeCount) {
                    throw new IllegalStateException("hand-over chain from " + nodes[origin] + " does not end");
                }
                int next = parent[node];
                moveToFront(via[node], giving ? node : next);
                node = next;
            }
            return true;
        }

        /** +1 for taking partition q away from its previous primary, -1 for handing it back. */
        private int handOverCost(int q, int primary, int replica) {
            int previous = previousPrimary[q];
            return (primary == previous ? 1 : 0) - (replica == previous ? 1 : 0);
        }

        /**
         * Cheapest chain first; then a receiver below the floor and with the fewest primaries, or a giver
         * with the most; then the shortest chain.
         */
        private boolean endsBetter(int node, int other, int[] cost, int[] hops, boolean giving) {
            if (cost[node] != cost[other]) {
                return cost[node] < cost[other];
            }
            if (primaries[node] != primaries[other]) {
                return giving ? primaries[node] < primaries[other] : primaries[node] > primaries[other];
            }
            return hops[node] < hops[other];
        }

        /** Makes {@code node}, an owner of {@code p}, its primary; the old primary takes node's position. */
        private void moveToFront(int p, int node) {
            int[] partitionOwners = owners[p];
            int position = indexOf(partitionOwners, partitionOwners.length, node);
            partitionOwners[position] = partitionOwners[0];
            partitionOwners[0] = node;
        }
    }
}
