package io.zaris.cluster;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Who keeps a vote when the partition map stops naming a node. Pure.
 *
 * <p>A majority is counted over the view's voters. When the leader re-homes the copies of a missing node
 * (eviction), the map no longer names it; if it lost its vote there and then, the base of every majority
 * shrank with each fault, and a node that came back (a restarted or resumed process) counted again only once
 * a rebalance planned it back in, which waits for a settled cluster. Overlapping faults then left
 * the survivors short of a majority of the shrunken base although a majority of the processes ran
 * (a 30-minute chaos run saw "2 of 4 nodes" with 3 of 5 running). So a node keeps its vote:
 * <ul>
 *   <li>while the map names it;</li>
 *   <li>while it is present (it came back and waits to be planned in, or it is stopping after a drain);</li>
 *   <li>for {@link #ABSENT_VOTER_RETENTION} after it was last seen: long enough for a restart or a paused
 *       process to return, short enough that a node gone for good stops weighing on the majority, so a
 *       cluster still survives faults one after another the way it did when votes followed the map.</li>
 * </ul>
 * A node gains a vote only through the map (a rebalance planning it in). Each change is decided by a leader
 * that holds a majority of the voters it changes, and it only drops absent nodes or adds map nodes.
 */
final class VoterRetention {

    /** How long a node the map no longer names keeps its vote after it was last present. */
    static final Duration ABSENT_VOTER_RETENTION = Duration.ofSeconds(60);

    private VoterRetention() {
    }

    /**
     * The voters of a view whose map names {@code mapNodes}, given the held voters.
     *
     * @param absentSince when each absent voter the map does not name was first seen absent (nanos on the
     *                    caller's clock); a voter missing from it counts as just gone
     */
    static Set<String> next(Set<String> heldVoters, Set<String> mapNodes, Set<String> present,
                            Map<String, Long> absentSince, long nowNanos) {
        Set<String> voters = new TreeSet<>(mapNodes);
        for (String voter : heldVoters) {
            if (mapNodes.contains(voter) || present.contains(voter)) {
                voters.add(voter);
                continue;
            }
            Long since = absentSince.get(voter);
            if (since == null || nowNanos - since < ABSENT_VOTER_RETENTION.toNanos()) {
                voters.add(voter);
            }
        }
        return voters;
    }
}
