package io.zaris.client;

import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.RuntimeMap;
import io.zaris.protocol.RuntimeOwnershipChangedEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How the client combines what it learns about the cluster. Pure functions of views, so a fetched map
 * that raced with a newer push can never roll the routing table back.
 */
final class ClientViews {

    private ClientViews() {
    }

    /**
     * Whether {@code fetched} comes from a cluster whose first map was computed again, by other processes
     * than {@code held}'s: nodes compute one only when none of a full set of members holds a map, i.e. after
     * every node restarted. Its versions and epochs start over, so ordering by them would keep the client on
     * the dead cluster's map for good (a chaos run's client routed with epochs no node had any more, and every
     * request got OWNERSHIP_CHANGING); the fetched view wins whole.
     */
    static boolean refounded(ClusterView held, ClusterView fetched) {
        return held != null && !held.founders().isEmpty() && !fetched.founders().isEmpty()
                && !held.founders().equals(fetched.founders());
    }

    /**
     * The newer of two views (a view of a cluster founded again wins, see {@link #refounded}); for the same partition map version, per partition the entry with the higher
     * epoch, the union of the addresses (the fetched address wins for a node known to both), and the
     * fetched leader unless it is unknown, and the fetched voters.
     */
    static ClusterView merge(ClusterView held, ClusterView fetched) {
        if (held == null || refounded(held, fetched) || fetched.partitionMap().version() > held.partitionMap().version()) {
            return fetched;
        }
        if (fetched.partitionMap().version() < held.partitionMap().version()) {
            return held;
        }
        List<PartitionRuntime> runtimes = new ArrayList<>(held.runtimeMap().partitionCount());
        for (int p = 0; p < held.runtimeMap().partitionCount(); p++) {
            PartitionRuntime mine = held.runtimeMap().get(p);
            PartitionRuntime theirs = fetched.runtimeMap().get(p);
            runtimes.add(theirs.epoch() > mine.epoch() ? theirs : mine);
        }
        Map<String, NodeAddress> addresses = new HashMap<>(held.addresses());
        addresses.putAll(fetched.addresses());
        String leader = fetched.leader() != null ? fetched.leader() : held.leader();
        return new ClusterView(held.layout(), held.partitionMap(), new RuntimeMap(runtimes), addresses, leader,
                held.founders(), fetched.voters());
    }

    /**
     * The view with one partition's runtime entry replaced by the event's, or {@code null} when the event
     * is not newer than what the view holds (or names a partition the view does not have).
     */
    static ClusterView apply(ClusterView held, RuntimeOwnershipChangedEvent event) {
        int partition = event.partition();
        if (partition < 0 || partition >= held.runtimeMap().partitionCount()
                || event.runtime().epoch() <= held.runtimeMap().get(partition).epoch()) {
            return null;
        }
        List<PartitionRuntime> runtimes = new ArrayList<>(held.runtimeMap().partitions());
        runtimes.set(partition, event.runtime());
        ClusterView updated = held.withRuntimeMap(new RuntimeMap(runtimes));
        if (event.activeAddress() != null && event.runtime().activeNode() != null
                && !event.activeAddress().equals(held.addresses().get(event.runtime().activeNode()))) {
            Map<String, NodeAddress> addresses = new HashMap<>(held.addresses());
            addresses.put(event.runtime().activeNode(), event.activeAddress());
            updated = updated.withAddresses(addresses);
        }
        return updated;
    }
}
