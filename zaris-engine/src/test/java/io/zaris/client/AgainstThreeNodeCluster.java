package io.zaris.client;

import io.zaris.embedded.EmbeddedCluster;
import io.zaris.placement.PartitionLayout;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * An integration test class whose tests share one in-process cluster of three nodes keeping two copies (64 segments in
 * 8 partitions, RESP ports open) and one client with default options. Each class starts its own before its first test
 * and stops it after its last (the fields are the running class's: test classes of one JVM run one after another).
 */
abstract class AgainstThreeNodeCluster {

    static EmbeddedCluster cluster;
    static ZarisClient client;

    @BeforeAll
    static void startCluster() {
        cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2).layout(PartitionLayout.of(64, 8)).resp(true).build()
                .start();
        client = ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds()).environment(Map.of()).build());
    }

    @AfterAll
    static void stopCluster() {
        client.close();
        cluster.close();
    }
}
