package io.zaris.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.spring.ZarisConnectionDetails;
import io.zaris.spring.ZarisEmbeddedClusterLifecycle;
import io.zaris.spring.template.ZarisTemplate;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;

/**
 * A real Spring Boot test of an application that uses the starter's auto-configuration, run against the cluster
 * {@link ZarisCluster} starts: the application must talk to that cluster and start none of its own.
 */
@SpringBootTest(classes = ZarisClusterSpringBootTests.Application.class)
@ZarisCluster(nodes = 3)
class ZarisClusterSpringBootTests {

    @Autowired
    private ApplicationContext context;

    @Autowired
    private ZarisTemplate template;

    @Test
    void theApplicationShouldUseTheAnnotatedClusterAndStartNoneOfItsOwn(EmbeddedCluster cluster) {
        assertThat(cluster.nodes()).hasSize(3);
        assertThat(context.getBeansOfType(ZarisEmbeddedClusterLifecycle.class)).isEmpty();
        assertThat(context.getBean(ZarisConnectionDetails.class).getSeeds()).isEqualTo(cluster.seeds());

        String key = "zaris-test-" + UUID.randomUUID();
        template.increment(key, 41);
        try (ZarisClient direct = ZarisClient.connect(ZarisClientOptions.create(cluster.seeds()))) {
            assertThat(direct.sync().get(key)).map(found -> new String(found.value(), StandardCharsets.US_ASCII))
                    .hasValue("41");
        }
    }

    @Test
    void theClusterShouldBeSharedByEveryTestWithTheSameAttributes(EmbeddedCluster cluster) {
        assertThat(ZarisTestClusters.obtain(new ZarisClusterSpec(3, 2, 64, 16, ZarisCluster.Launch.EMBEDDED, "", false))
                .handle()).isSameAs(cluster);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {
    }
}
