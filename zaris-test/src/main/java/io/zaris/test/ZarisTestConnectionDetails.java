package io.zaris.test;

import io.zaris.model.NodeAddress;
import io.zaris.spring.ZarisConnectionDetails;
import java.util.List;

/** Points the application's client at the test's {@link ZarisCluster}; the cluster is obtained when first asked. */
final class ZarisTestConnectionDetails implements ZarisConnectionDetails {

    private final ZarisClusterSpec spec;

    ZarisTestConnectionDetails(ZarisClusterSpec spec) {
        this.spec = spec;
    }

    @Override
    public List<NodeAddress> getSeeds() {
        return ZarisTestClusters.obtain(spec).seeds();
    }
}
