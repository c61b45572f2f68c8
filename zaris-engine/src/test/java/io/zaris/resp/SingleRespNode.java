package io.zaris.resp;

import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import java.io.IOException;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A test fixture: a one-node cluster with the Redis protocol on (64 segments in 8 partitions), so the node serves
 * every slot. Register it as a static {@code @RegisterExtension} field: it starts before the class's first test and
 * is closed after its last. JUnit calls both callbacks on the test thread, which alone sets the cluster.
 */
final class SingleRespNode implements BeforeAllCallback, AfterAllCallback {

    private EmbeddedCluster cluster;

    @Override
    public void beforeAll(ExtensionContext context) {
        cluster = EmbeddedCluster.builder().nodes(1).replicationFactor(1).layout(PartitionLayout.of(64, 8)).resp(true)
                .build().start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (cluster != null) {
            cluster.close();
        }
    }

    EmbeddedCluster cluster() {
        return cluster;
    }

    /** The node's Redis protocol address. */
    NodeAddress address() {
        return cluster.respSeeds().get(0);
    }

    /** {@link RedisCli#assertReplies} against the node. */
    void assertReplies(String commands, String expected) throws IOException {
        RedisCli.assertReplies(address(), commands, expected);
    }
}
