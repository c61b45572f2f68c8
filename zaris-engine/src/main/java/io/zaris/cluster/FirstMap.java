package io.zaris.cluster;

import io.zaris.model.ClusterView;
import io.zaris.model.RuntimeMap;
import io.zaris.placement.PartitionMap;
import io.zaris.placement.PartitionPlanner;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Who computes the cluster's first partition map, and when (the rule is {@link LeaderRule#shouldComputeInitialMap}):
 * the leader, once every expected member is in its membership view and announced itself, and none holds a map. The
 * map plans the members in view order; its runtime map starts at epoch 1; its founders are the members' incarnations
 * (see {@link ClusterView#founders()}), so a restarted process can tell the roles of its predecessor from its own.
 *
 * <p>Pure: a function of the membership view, the held cluster view and the settings.
 */
final class FirstMap {

    private FirstMap() {
    }

    /**
     * The first cluster view {@code self} must publish now, or {@code null} when it must not compute one (it does
     * not lead, a map is held here or by a member, or a member is missing or has not announced itself).
     */
    static <A> ClusterView plan(boolean leading, ClusterView held, MembershipRoster<A> roster, ClusterSettings settings,
                                String self) {
        if (!roster.hasView() || !LeaderRule.shouldComputeInitialMap(leading, held != null, roster.announcedMembers(),
                roster.members().size(), settings.clusterSize(), !roster.mapHolders(self).isEmpty())) {
            return null;
        }
        List<ClusterMessages.NodeHello> hellos = roster.hellosInViewOrder();
        List<String> members = new ArrayList<>();
        Map<String, String> founders = new HashMap<>();
        for (ClusterMessages.NodeHello hello : hellos) {
            members.add(hello.nodeId());
            founders.put(hello.nodeId(), hello.incarnation());
        }
        PartitionMap map = PartitionPlanner.plan(members, settings.layout().partitionCount(),
                settings.replicationFactor(), null);
        return new ClusterView(settings.layout(), map, RuntimeMap.initial(map, 1), roster.mergedAddresses(null), self,
                founders);
    }
}
