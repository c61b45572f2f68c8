package io.zaris.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.spring.ZarisConnectionDetails;
import io.zaris.spring.ZarisEmbeddedClusterLifecycle;
import io.zaris.spring.template.ZarisTemplate;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;

/**
 * A real Spring Boot test against a {@link ZarisCluster} of server processes started from the server jar (the
 * build passes its path): the application must talk to those processes, start no cluster of its own, and keep
 * working, with its default client options, while a node is stopped and started again.
 */
@SpringBootTest(classes = ZarisServerProcessesIntegrationTests.Application.class)
@ZarisCluster(nodes = 3, launch = ZarisCluster.Launch.SERVER_PROCESSES)
class ZarisServerProcessesIntegrationTests {

    @Autowired
    private ApplicationContext context;

    @Autowired
    private ZarisTemplate template;

    @Test
    void theApplicationShouldUseTheServerProcessesAndStartNoClusterOfItsOwn(ZarisServerProcesses cluster)
            throws Exception {
        assertThat(cluster.size()).isEqualTo(3);
        for (int i = 0; i < cluster.size(); i++) {
            assertThat(cluster.isRunning(i)).as("%s runs", cluster.nodeId(i)).isTrue();
            assertThat(Files.readString(cluster.logFile(i))).as("%s's log", cluster.nodeId(i))
                    .contains("node " + cluster.nodeId(i));
        }
        assertThat(context.getBeansOfType(ZarisEmbeddedClusterLifecycle.class)).isEmpty();
        assertThatIllegalStateException().as("no RESP listener without resp = true").isThrownBy(cluster::respSeeds)
                .withMessageContaining("@ZarisCluster(resp = true)");
        assertThat(context.getBean(ZarisConnectionDetails.class).getSeeds()).isEqualTo(cluster.seeds());

        String key = "zaris-test-processes-" + UUID.randomUUID();
        template.increment(key, 41);
        assertThat(readDirectly(cluster, key)).isEqualTo("41");
    }

    @Test
    void theApplicationShouldKeepWorkingWhileANodeIsStoppedAndStartedAgain(ZarisServerProcesses cluster) {
        String key = "zaris-test-restart-" + UUID.randomUUID();
        template.put(key, "before");

        cluster.stop(2);
        try {
            assertThat(cluster.isRunning(2)).isFalse();
            template.put(key, "while " + cluster.nodeId(2) + " is down");
            assertThat(template.get(key, String.class)).hasValue("while n3 is down");
        } finally {
            cluster.start(2);
        }

        assertThat(cluster.isRunning(2)).isTrue();
        template.put(key, "after");
        assertThat(template.get(key, String.class)).hasValue("after");
    }

    private static String readDirectly(ZarisServerProcesses cluster, String key) {
        try (ZarisClient direct = ZarisClient.connect(ZarisClientOptions.create(cluster.seeds()))) {
            return direct.sync().get(key).map(found -> new String(found.value(), StandardCharsets.US_ASCII))
                    .orElseThrow();
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {
    }
}
