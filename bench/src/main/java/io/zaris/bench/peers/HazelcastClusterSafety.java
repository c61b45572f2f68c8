package io.zaris.bench.peers;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import java.io.Serializable;
import java.util.concurrent.Callable;

/**
 * Runs on a Hazelcast member: full redundancy is the expected number of members and a cluster that is "safe" in
 * Hazelcast's sense ({@code PartitionService.isClusterSafe()}: no migration running, every partition has its
 * configured backups assigned and in sync). The member count matters because a member that was killed is still a
 * member, and the cluster still looks safe, until the others notice. (Members load this class from the benchmark's
 * classpath.)
 */
final class HazelcastClusterSafety implements Callable<String>, Serializable, HazelcastInstanceAware {

    private static final long serialVersionUID = 1L;

    private final int expectedMembers;
    private transient HazelcastInstance member;

    HazelcastClusterSafety(int expectedMembers) {
        this.expectedMembers = expectedMembers;
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance member) {
        this.member = member;
    }

    /** What is short of full redundancy, as {@link FailoverTarget#redundancyShortfall} says it; empty when nothing is. */
    @Override
    public String call() {
        int members = member.getCluster().getMembers().size();
        if (members != expectedMembers) {
            return members + " members, not " + expectedMembers;
        }
        return member.getPartitionService().isClusterSafe() ? "" : "cluster not safe (backups missing, out of sync or migrating)";
    }
}
