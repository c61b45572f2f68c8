package io.zaris.placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * Computes the partition map as a pure function of (members, partition count, replication factor,
 * previous map).
 *
 * <p><b>Guarantees.</b> With {@code N} members, {@code P} partitions and {@code r = min(replicationFactor, N)}:
 * <ul>
 *   <li>every partition gets exactly {@code r} distinct members, preferred primary first;</li>
 *   <li>every member holds between {@code floor(P*r/N)} and {@code ceil(P*r/N)} owner slots in total;</li>
 *   <li>every member is preferred primary of at most {@code ceil(P/N)} partitions, and of at least
 *       {@code floor(P/N)} whenever the owner sets allow it (best-effort);</li>
 *   <li>the result depends only on the set of member ids, never on the iteration order of {@code members};</li>
 *   <li>the version is 1 for a first map and {@code previous.version() + 1} otherwise.</li>
 * </ul>
 *
 * <p><b>Minimal movement.</b> Planning runs as a short pipeline over node indexes (members sorted by id):
 * <ol>
 *   <li><i>keep</i>: each partition keeps its previous owners that are still members, in their previous
 *       order (so a surviving replica of a departed primary becomes the preferred primary), up to {@code r};</li>
 *   <li><i>shed</i>: a member above the load ceiling gives up replica slots before primary slots, and
 *       prefers partitions that are not already short of owners;</li>
 *   <li><i>fill</i>: each missing slot goes to the least-loaded eligible member (for an empty partition:
 *       fewest primaries first), ties broken by a rotation that starts at the partition index, and for
 *       replicas advances one extra step per round of {@code N} partitions, so a node's replicas spread over
 *       different peers. If no member outside the partition has room, one swap makes room: a member at the
 *       ceiling hands one of its slots in another partition to an under-loaded owner of this one and takes
 *       the vacancy (two new assignments);</li>
 *   <li><i>raise</i>: a member below the load floor takes one replica slot (a primary slot only if it must)
 *       from the most-loaded member above the floor, one assignment per missing slot;</li>
 *   <li><i>primaries</i>: the preferred primary is re-chosen among each partition's owners only where the
 *       primary bounds demand it, along shortest alternating paths (a path of length k changes k primaries).</li>
 * </ol>
 * Nothing else moves: every previous (partition, member) pair survives unless its member left, the
 * replication factor shrank, or it is needed to respect the bounds. Each step always succeeds: a member
 * below a bound holds fewer partitions than some member above it, so a partition held by the latter and
 * not the former exists; and since {@code ceil(P*r/N) <= r * ceil(P/N)}, Hall's condition guarantees a
 * primary choice within the ceiling for any owner sets within the load ceiling.
 *
 * <p>Cost: {@code O(P * r * N)} for a first map, and roughly {@code O(P * r)} per moved assignment after.
 * No I/O, clocks or randomness.
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
        Assignment assignment = new Assignment(nodes, partitionCount, Math.min(replicationFactor, nodes.length));
        if (previous != null) {
            assignment.keep(previous);
        }
        assignment.shedAboveCeiling();
        assignment.fillVacancies();
        assignment.raiseBelowFloor();
        assignment.balancePrimaries();
        long version = previous == null ? 1 : Math.addExact(previous.version(), 1);
        return new PartitionMap(version, replicationFactor, assignment.ownerIds());
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

    /**
     * Mutable working state of one planning run, confined to it. Nodes are indexes into the sorted member
     * array. {@code load} and {@code primaries} always agree with {@code owners}: every edit goes through
     * {@link #append}, {@link #removeAt}, {@link #replaceAt} or {@link #promote}.
     */
    private static final class Assignment {

        private final String[] nodes;
        private final int nodeCount;
        private final int partitionCount;
        private final int copies;
        /** {@code owners[p][0..size[p])}: node indexes of partition p, preferred primary first. */
        private final int[][] owners;
        private final int[] size;
        /** Owner slots held per node. */
        private final int[] load;
        /** Partitions per node where it is {@code owners[p][0]}. */
        private final int[] primaries;
        /**
         * During {@link #fillVacancies}: primaries each node keeps from the previous map plus those it is
         * expected to take in partitions whose primary changes anyway.
         */
        private final int[] claims;
        /** Whether a previous map was kept. */
        private boolean replanning;
        /** Previous preferred primary of each partition if it is still a member, else -1. */
        private final int[] previousPrimary;
        private final int loadFloor;
        private final int loadCeiling;
        private final int primaryFloor;
        private final int primaryCeiling;

        Assignment(String[] nodes, int partitionCount, int copies) {
            this.nodes = nodes;
            this.nodeCount = nodes.length;
            this.partitionCount = partitionCount;
            this.copies = copies;
            this.owners = new int[partitionCount][copies];
            this.size = new int[partitionCount];
            this.load = new int[nodeCount];
            this.primaries = new int[nodeCount];
            this.claims = new int[nodeCount];
            this.previousPrimary = new int[partitionCount];
            Arrays.fill(previousPrimary, -1);
            long slots = (long) partitionCount * copies;
            this.loadFloor = (int) (slots / nodeCount);
            this.loadCeiling = (int) ((slots + nodeCount - 1) / nodeCount);
            this.primaryFloor = partitionCount / nodeCount;
            this.primaryCeiling = (int) (((long) partitionCount + nodeCount - 1) / nodeCount);
        }

        void keep(PartitionMap previous) {
            replanning = true;
            for (int p = 0; p < partitionCount; p++) {
                previousPrimary[p] = Math.max(-1, Arrays.binarySearch(nodes, previous.primaryOf(p)));
                for (String id : previous.ownersOf(p)) {
                    int node = Arrays.binarySearch(nodes, id);
                    if (size[p] < copies && node >= 0) {
                        append(p, node);
                    }
                }
            }
        }

        void shedAboveCeiling() {
            int[] mustGive = new int[nodeCount];
            int[] mayGive = new int[nodeCount];
            for (int node = 0; node < nodeCount; node++) {
                mustGive[node] = Math.max(0, primaries[node] - primaryCeiling);
                mayGive[node] = Math.max(0, primaries[node] - primaryFloor);
            }
            for (int node = 0; node < nodeCount; node++) {
                if (load[node] <= loadCeiling) {
                    continue;
                }
                List<Integer> held = new ArrayList<>(load[node]);
                for (int p = 0; p < partitionCount; p++) {
                    if (indexOf(p, node) >= 0) {
                        held.add(p);
                    }
                }
                while (load[node] > loadCeiling) {
                    int best = -1;
                    for (int p : held) {
                        if (indexOf(p, node) >= 0 && (best < 0 || shedsBetter(node, p, best, mustGive, mayGive))) {
                            best = p;
                        }
                    }
                    int position = indexOf(best, node);
                    int primary = owners[best][0];
                    if (position > 0) {
                        mustGive[primary] = Math.max(0, mustGive[primary] - 1);
                        mayGive[primary] = Math.max(0, mayGive[primary] - 1);
                    }
                    removeAt(best, position);
                }
            }
        }

        void fillVacancies() {
            for (int p = 0; p < partitionCount; p++) {
                if (size[p] > 0 && owners[p][0] == previousPrimary[p]) {
                    claims[owners[p][0]]++;
                }
            }
            for (int p = 0; p < partitionCount; p++) {
                boolean open = size[p] == 0 || owners[p][0] != previousPrimary[p];
                while (size[p] < copies) {
                    int node = leastLoadedEligible(p, open);
                    if (node >= 0) {
                        append(p, node);
                    } else {
                        swapInto(p);
                    }
                }
                if (open) {
                    int claimant = owners[p][0];
                    for (int position = 1; position < size[p]; position++) {
                        if (claims[owners[p][position]] < claims[claimant]) {
                            claimant = owners[p][position];
                        }
                    }
                    claims[claimant]++;
                }
            }
        }

        void raiseBelowFloor() {
            for (int node = 0; node < nodeCount; node++) {
                while (load[node] < loadFloor) {
                    int bestPartition = -1;
                    int bestPosition = -1;
                    for (int q = 0; q < partitionCount; q++) {
                        if (indexOf(q, node) >= 0) {
                            continue;
                        }
                        for (int position = 0; position < size[q]; position++) {
                            int donor = owners[q][position];
                            if (load[donor] > loadFloor
                                    && (bestPartition < 0 || donatesBetter(donor, position,
                                            owners[bestPartition][bestPosition], bestPosition))) {
                                bestPartition = q;
                                bestPosition = position;
                            }
                        }
                    }
                    if (bestPartition < 0) {
                        throw new IllegalStateException("no donor for node " + nodes[node] + " below load floor "
                                + loadFloor);
                    }
                    replaceAt(bestPartition, bestPosition, node);
                }
            }
        }

        void balancePrimaries() {
            startFromPreviousPrimaries();
            for (int node = 0; node < nodeCount; node++) {
                while (primaries[node] > primaryCeiling) {
                    if (!handOverPrimary(node, true)) {
                        throw new IllegalStateException("cannot bring node " + nodes[node] + " down to "
                                + primaryCeiling + " primaries");
                    }
                }
            }
            for (int node = 0; node < nodeCount; node++) {
                while (primaries[node] < primaryFloor && handOverPrimary(node, false)) {
                    // each hand-over gives node one more primary
                }
            }
        }

        List<List<String>> ownerIds() {
            List<List<String>> ids = new ArrayList<>(partitionCount);
            for (int p = 0; p < partitionCount; p++) {
                List<String> partitionOwners = new ArrayList<>(size[p]);
                for (int position = 0; position < size[p]; position++) {
                    partitionOwners.add(nodes[owners[p][position]]);
                }
                ids.add(partitionOwners);
            }
            return ids;
        }

        /**
         * The member that should take the next slot of {@code p}, or -1 when every member outside the
         * partition is at the load ceiling.
         */
        private int leastLoadedEligible(int p, boolean open) {
            boolean primarySlot = size[p] == 0;
            boolean primaryChanging = replanning && open;
            int start = primarySlot ? p % nodeCount : (int) ((p + 1L + p / nodeCount) % nodeCount);
            int best = -1;
            for (int step = 0; step < nodeCount; step++) {
                int node = (start + step) % nodeCount;
                if (load[node] >= loadCeiling || indexOf(p, node) >= 0) {
                    continue;
                }
                if (best < 0 || lighter(node, best, primarySlot, primaryChanging)) {
                    best = node;
                }
            }
            return best;
        }

        /**
         * Makes room in {@code p} when only its own owners are below the ceiling: a member outside
         * {@code p} (necessarily at the ceiling) gives a slot in some other partition to the least-loaded
         * owner of {@code p} that has room, and takes the vacancy in {@code p}.
         */
        private void swapInto(int p) {
            int taker = -1;
            for (int position = 0; position < size[p]; position++) {
                int node = owners[p][position];
                if (load[node] < loadCeiling && (taker < 0 || load[node] < load[taker])) {
                    taker = node;
                }
            }
            if (taker < 0) {
                throw new IllegalStateException("partition " + p + " is short of owners but nobody has room");
            }
            for (int step = 0; step < nodeCount; step++) {
                int giver = (p % nodeCount + step) % nodeCount;
                if (indexOf(p, giver) >= 0) {
                    continue;
                }
                int bestPartition = -1;
                int bestPosition = -1;
                for (int q = 0; q < partitionCount; q++) {
                    int position = indexOf(q, giver);
                    if (position < 0 || indexOf(q, taker) >= 0) {
                        continue;
                    }
                    if (bestPartition < 0 || bestPosition == 0) {
                        bestPartition = q;
                        bestPosition = position;
                        if (position > 0) {
                            break;
                        }
                    }
                }
                if (bestPartition >= 0) {
                    replaceAt(bestPartition, bestPosition, taker);
                    append(p, giver);
                    return;
                }
            }
            throw new IllegalStateException("no swap makes room in partition " + p);
        }

        /**
         * Which of {@code node}'s slots to give up first: a replica slot before a primary slot; a partition
         * not yet short of owners; a partition whose primary has primaries to give away, above the ceiling
         * first, then above the floor (so whoever fills the vacancy can take that primary role over in one
         * hand-over); the deepest replica; the lowest partition.
         */
        private boolean shedsBetter(int node, int p, int other, int[] mustGive, int[] mayGive) {
            int position = indexOf(p, node);
            int otherPosition = indexOf(other, node);
            if ((position == 0) != (otherPosition == 0)) {
                return position != 0;
            }
            boolean short1 = size[p] < copies;
            boolean short2 = size[other] < copies;
            if (short1 != short2) {
                return !short1;
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

        /**
         * Fewer primaries first when filling a primary slot, then fewer owner slots; when the partition's
         * primary role is up for grabs anyway, fewer primaries also break ties between equal loads.
         */
        private boolean lighter(int node, int other, boolean primarySlot, boolean primaryChanging) {
            if (primarySlot && claims[node] != claims[other]) {
                return claims[node] < claims[other];
            }
            if (load[node] != load[other]) {
                return load[node] < load[other];
            }
            return primaryChanging && claims[node] < claims[other];
        }

        /** Replica slots before primary slots, then the most-loaded donor. */
        private boolean donatesBetter(int donor, int position, int bestDonor, int bestPosition) {
            if ((position == 0) != (bestPosition == 0)) {
                return position != 0;
            }
            return load[donor] > load[bestDonor];
        }

        /**
         * Every partition whose previous primary still owns it keeps that primary (cost 0); every other
         * partition changes primary whatever we pick, so it takes the owner with the fewest primaries so far.
         * No cycle of hand-overs can lower the number of changed primaries from here, which is what keeps
         * each later cheapest hand-over optimal for the primary counts it produces.
         */
        private void startFromPreviousPrimaries() {
            boolean[] open = new boolean[partitionCount];
            for (int p = 0; p < partitionCount; p++) {
                int previous = previousPrimary[p];
                if (previous >= 0 && indexOf(p, previous) >= 0) {
                    if (owners[p][0] != previous) {
                        promote(p, previous);
                    }
                } else {
                    open[p] = true;
                    primaries[owners[p][0]]--;
                }
            }
            for (int p = 0; p < partitionCount; p++) {
                if (!open[p]) {
                    continue;
                }
                int best = owners[p][0];
                for (int position = 1; position < size[p]; position++) {
                    if (primaries[owners[p][position]] < primaries[best]) {
                        best = owners[p][position];
                    }
                }
                primaries[owners[p][0]]++;
                if (best != owners[p][0]) {
                    promote(p, best);
                }
            }
        }

        /**
         * Moves one preferred-primary role along the cheapest chain of hand-overs
         * {@code n0 -q1-> n1 -q2-> ... -qk-> nk}, where each {@code n(i)} already owns {@code q(i)} and
         * becomes its primary in place of {@code n(i-1)}: only {@code n0} ends with one primary fewer and
         * {@code nk} with one more. The cost of a chain is the number of partitions it moves away from their
         * previous primary minus the number it moves back (Bellman-Ford; no negative cycles, see
         * {@link #startFromPreviousPrimaries}).
         *
         * @param origin      {@code n0} when {@code giving}, else {@code nk}
         * @param giving      whether {@code origin} gives a primary away (to a node below the ceiling,
         *                    preferring nodes below the floor) or receives one (from a node above the floor)
         * @return false when no node can complete the chain
         */
        private boolean handOverPrimary(int origin, boolean giving) {
            int[] cost = new int[nodeCount];
            int[] hops = new int[nodeCount];
            int[] parent = new int[nodeCount];
            int[] via = new int[nodeCount];
            Arrays.fill(cost, Integer.MAX_VALUE);
            cost[origin] = 0;
            for (int round = 0; round < nodeCount; round++) {
                boolean relaxed = false;
                for (int q = 0; q < partitionCount; q++) {
                    int primary = owners[q][0];
                    for (int position = 1; position < size[q]; position++) {
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
                if (node == origin || cost[node] == Integer.MAX_VALUE
                        || (giving ? primaries[node] >= primaryCeiling : primaries[node] <= primaryFloor)) {
                    continue;
                }
                if (end < 0 || endsBetter(node, end, cost, hops, giving)) {
                    end = node;
                }
            }
            if (end < 0) {
                return false;
            }
            for (int node = end, steps = 0; node != origin; steps++) {
                if (steps > nodeCount) {
                    throw new IllegalStateException("hand-over chain from " + nodes[origin] + " does not end");
                }
                int next = parent[node];
                promote(via[node], giving ? node : next);
                node = next;
            }
            return true;
        }

        /** +1 for taking partition q away from its previous primary, -1 for giving it back. */
        private int handOverCost(int q, int primary, int replica) {
            int previous = previousPrimary[q];
            return (primary == previous ? 1 : 0) - (replica == previous ? 1 : 0);
        }

        /**
         * Cheapest chain first, then (receiving end) a node below the floor and then the fewest primaries,
         * or (giving end) the most primaries; then the shortest chain.
         */
        private boolean endsBetter(int node, int other, int[] cost, int[] hops, boolean giving) {
            if (cost[node] != cost[other]) {
                return cost[node] < cost[other];
            }
            if (primaries[node] != primaries[other]) {
                if (!giving) {
                    return primaries[node] > primaries[other];
                }
                boolean starved = primaries[node] < primaryFloor;
                if (starved != (primaries[other] < primaryFloor)) {
                    return starved;
                }
                return primaries[node] < primaries[other];
            }
            return hops[node] < hops[other];
        }

        private int indexOf(int p, int node) {
            int[] partitionOwners = owners[p];
            for (int position = 0; position < size[p]; position++) {
                if (partitionOwners[position] == node) {
                    return position;
                }
            }
            return -1;
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

        /** Makes {@code node}, already an owner of {@code p}, its preferred primary; the old one takes its place. */
        private void promote(int p, int node) {
            int position = indexOf(p, node);
            int[] partitionOwners = owners[p];
            primaries[partitionOwners[0]]--;
            primaries[node]++;
            partitionOwners[position] = partitionOwners[0];
            partitionOwners[0] = node;
        }
    }
}
