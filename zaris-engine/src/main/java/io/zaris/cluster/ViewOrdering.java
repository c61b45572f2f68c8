package io.zaris.cluster;

/** Decides whether a published cluster view may replace the one a node holds. Pure. */
public final class ViewOrdering {

    private ViewOrdering() {
    }

    /**
     * A candidate is acceptable when its partition map version is higher, or equal with no partition's
     * epoch lower than held (epochs never go backwards; equal views are re-broadcasts and harmless).
     */
    public static boolean isAtLeastAsNew(ClusterView candidate, ClusterView held) {
        long candidateVersion = candidate.partitionMap().version();
        long heldVersion = held.partitionMap().version();
        if (candidateVersion != heldVersion) {
            return candidateVersion > heldVersion;
        }
        if (candidate.runtimeMap().partitionCount() != held.runtimeMap().partitionCount()) {
            return false;
        }
        for (int p = 0; p < held.runtimeMap().partitionCount(); p++) {
            if (candidate.runtimeMap().get(p).epoch() < held.runtimeMap().get(p).epoch()) {
                return false;
            }
        }
        return true;
    }
}
