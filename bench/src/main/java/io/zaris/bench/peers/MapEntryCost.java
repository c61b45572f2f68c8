package io.zaris.bench.peers;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.map.LocalMapStats;
import java.io.Serializable;
import java.util.concurrent.Callable;

/**
 * Runs on a Hazelcast member: the memory cost that member reports for one map's owned and backup
 * entries. (The member processes load this class from the benchmark's own classpath.)
 */
final class MapEntryCost implements Callable<Long>, Serializable, HazelcastInstanceAware {

    private static final long serialVersionUID = 1L;

    private final String mapName;
    private transient HazelcastInstance member;

    MapEntryCost(String mapName) {
        this.mapName = mapName;
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance member) {
        this.member = member;
    }

    @Override
    public Long call() {
        LocalMapStats stats = member.getMap(mapName).getLocalMapStats();
        return stats.getOwnedEntryMemoryCost() + stats.getBackupEntryMemoryCost();
    }
}
