package io.zaris.cluster;

import io.zaris.model.NodeAddress;
import io.zaris.protocol.PartitionState;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/** Faults injected on purpose into what the coordinator learns, to show the simulation notices them. */
final class MutantProbes {

    private MutantProbes() {
    }

    /**
     * Every copy reported complete with nothing in it: the candidate order and the possession proof see no
     * difference between copies, so the first live owner is promoted and serves at once, whatever it holds.
     */
    static PeerProbe reportingEveryCopyComplete(PeerProbe real) {
        return new PeerProbe() {
            @Override
            public CompletableFuture<Boolean> isReachable(NodeAddress address) {
                return real.isReachable(address);
            }

            @Override
            public CompletableFuture<Map<Integer, PartitionState>> partitionStates(NodeAddress address,
                                                                                  Collection<Integer> partitions) {
                return real.partitionStates(address, partitions).thenApply(states -> {
                    Map<Integer, PartitionState> blurred = new TreeMap<>();
                    states.forEach((p, state) -> blurred.put(p, new PartitionState(state.highestEpoch(), 0, 0,
                            Integer.MAX_VALUE, state.confirmedReplicas())));
                    return blurred;
                });
            }
        };
    }
}
