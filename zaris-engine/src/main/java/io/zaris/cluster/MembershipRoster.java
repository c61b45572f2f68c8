package io.zaris.cluster;

import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Who is in this node's membership view and what each member announced (its {@link ClusterMessages.NodeHello}):
 * the counts a majority and the leadership are judged by, the nodes present, the data addresses, the members that
 * hold a map. Membership's view lists its members oldest first; the first is its coordinator.
 *
 * <p>A majority is counted over the <em>voters</em> once there is a map (the map's nodes and the nodes whose copies
 * were re-homed but keep their vote, see {@link VoterRetention}; a node that joined but holds nothing yet does not
 * vote), else over the configured cluster size; only members that announced themselves count as voters then.
 *
 * <p>Concurrency: not thread-safe; owned by the cluster member's events thread, which feeds it every membership view
 * and hello.
 *
 * @param <A> how membership addresses a node: JGroups' address in the cluster member, plain values in tests
 */
final class MembershipRoster<A> {

    /** {@code null} until the first membership view. */
    private List<A> members;
    /** Hellos of the members of the current view (a member that left is forgotten with its hello). */
    private final Map<A, ClusterMessages.NodeHello> announced = new HashMap<>();

    /** A membership view with {@code members}, oldest first, was installed. */
    void viewChanged(List<A> newMembers) {
        members = List.copyOf(newMembers);
        announced.keySet().retainAll(members);
    }

    /** {@code member} announced itself (or announced again, e.g. once it holds a map). */
    void announced(A member, ClusterMessages.NodeHello hello) {
        announced.put(member, hello);
    }

    /** Whether a membership view was installed. */
    boolean hasView() {
        return members != null;
    }

    /** The coordinator of the current view; {@code null} before the first. */
    A coordinator() {
        return members == null || members.isEmpty() ? null : members.get(0);
    }

    boolean contains(A member) {
        return members != null && members.contains(member);
    }

    /** The members of the current view, oldest first; empty before the first. */
    List<A> members() {
        return members == null ? List.of() : members;
    }

    /** What {@code member} announced; {@code null} when it has not (yet). */
    ClusterMessages.NodeHello hello(A member) {
        return announced.get(member);
    }

    /** The address of the member that announced itself as {@code nodeId}; {@code null} when none did. */
    A addressOf(String nodeId) {
        A address = null;
        for (Map.Entry<A, ClusterMessages.NodeHello> member : announced.entrySet()) {
            if (member.getValue().nodeId().equals(nodeId)) {
                address = member.getKey();
            }
        }
        return address;
    }

    /** Ids of the members of the current view that announced themselves. */
    Set<String> presentNodes() {
        Set<String> present = new HashSet<>();
        for (A member : members()) {
            ClusterMessages.NodeHello hello = announced.get(member);
            if (hello != null) {
                present.add(hello.nodeId());
            }
        }
        return present;
    }

    /** How many members of the current view announced themselves. */
    int announcedMembers() {
        int count = 0;
        for (A member : members()) {
            if (announced.containsKey(member)) {
                count++;
            }
        }
        return count;
    }

    /** How many members of the current view have not announced themselves yet. */
    int membersWithoutHello() {
        return members().size() - announcedMembers();
    }

    /** How many nodes a majority is counted over: {@code held}'s voters, or {@code clusterSize} without a map. */
    static int votingSize(ClusterView held, int clusterSize) {
        return held == null ? clusterSize : held.voters().size();
    }

    /** How many voters the current view holds: every member without a map, else the announced voters of {@code held}. */
    int votersInView(ClusterView held) {
        if (held == null) {
            return members().size();
        }
        Set<String> voters = held.voters();
        int count = 0;
        for (A member : members()) {
            ClusterMessages.NodeHello hello = announced.get(member);
            if (hello != null && voters.contains(hello.nodeId())) {
                count++;
            }
        }
        return count;
    }

    /** Whether the current view holds a strict majority of the voters ({@code held}'s, or the configured size). */
    boolean holdsMajority(ClusterView held, int clusterSize) {
        return votersInView(held) * 2 > votingSize(held, clusterSize);
    }

    /** Whether {@code self} leads: it coordinates the current view and that view holds a majority. */
    boolean leads(A self, ClusterView held, int clusterSize) {
        return self != null && members != null
                && LeaderRule.isLeader(self.equals(coordinator()), votersInView(held), votingSize(held, clusterSize));
    }

    /**
     * The node id of the coordinator when the current view holds a majority and the coordinator announced itself;
     * {@code null} otherwise.
     */
    String majorityCoordinatorId(ClusterView held, int clusterSize) {
        if (members == null || !LeaderRule.isLeader(true, votersInView(held), votingSize(held, clusterSize))) {
            return null;
        }
        ClusterMessages.NodeHello coordinator = announced.get(coordinator());
        return coordinator == null ? null : coordinator.nodeId();
    }

    /** Node id → data address of the members of the current view, other than {@code self}, that hold a map. */
    Map<String, NodeAddress> mapHolders(String self) {
        Map<String, NodeAddress> holders = new TreeMap<>();
        for (A member : members()) {
            ClusterMessages.NodeHello hello = announced.get(member);
            if (hello != null && hello.holdsMap() && !hello.nodeId().equals(self)) {
                holders.put(hello.nodeId(), hello.dataAddress());
            }
        }
        return holders;
    }

    /** {@code base}'s addresses ({@code null}: none) overridden by the data addresses members announced. */
    Map<String, NodeAddress> mergedAddresses(ClusterView base) {
        Map<String, NodeAddress> addresses = new HashMap<>(base == null ? Map.of() : base.addresses());
        for (ClusterMessages.NodeHello hello : announced.values()) {
            addresses.put(hello.nodeId(), hello.dataAddress());
        }
        return addresses;
    }

    /**
     * The hellos of every member of the current view in view order, or {@code null} when one of them has not
     * announced itself yet.
     */
    List<ClusterMessages.NodeHello> hellosInViewOrder() {
        List<ClusterMessages.NodeHello> hellos = new ArrayList<>();
        for (A member : members()) {
            ClusterMessages.NodeHello hello = announced.get(member);
            if (hello == null) {
                return null;
            }
            hellos.add(hello);
        }
        return hellos;
    }
}
