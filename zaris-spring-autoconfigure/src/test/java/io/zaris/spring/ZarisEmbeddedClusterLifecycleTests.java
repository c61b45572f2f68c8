package io.zaris.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.placement.PartitionLayout;
import io.zaris.server.ZarisNode;
import io.zaris.store.MemoryOptions;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class ZarisEmbeddedClusterLifecycleTests {

    private final ZarisEmbeddedClusterLifecycle lifecycle = new ZarisEmbeddedClusterLifecycle(
            EmbeddedCluster.builder().nodes(1).layout(PartitionLayout.of(64, 8)).build());

    @AfterEach
    void stopCluster() {
        lifecycle.destroy();
    }

    @Test
    void afterPropertiesSetShouldStartTheCluster() {
        lifecycle.afterPropertiesSet();

        assertThat(lifecycle.isRunning()).isTrue();
        assertThat(lifecycle.seeds()).hasSize(1);
    }

    @Test
    void startWhenAlreadyRunningShouldDoNothing() {
        lifecycle.afterPropertiesSet();
        ZarisNode node = lifecycle.cluster().nodes().get(0);

        lifecycle.start();

        assertThat(lifecycle.cluster().nodes()).containsExactly(node);
        assertThat(node.isRunning()).isTrue();
    }

    @Test
    void stopShouldLeaveTheNodesRunningForTheClientThatStillUsesThem() {
        lifecycle.afterPropertiesSet();

        lifecycle.stop();

        assertThat(lifecycle.isRunning()).isTrue();
        assertThat(lifecycle.cluster().nodes()).allMatch(ZarisNode::isRunning);
        assertThat(lifecycle.seeds()).hasSize(1);
    }

    @Test
    void destroyShouldCloseEveryNodeAndBeIdempotent() {
        lifecycle.afterPropertiesSet();

        lifecycle.destroy();
        lifecycle.destroy();
        lifecycle.stop();

        assertThat(lifecycle.isRunning()).isFalse();
        assertThat(lifecycle.cluster().nodes()).noneMatch(ZarisNode::isRunning);
    }

    @Test
    void destroyBeforeStartShouldStartNothing() {
        lifecycle.stop();
        lifecycle.destroy();

        assertThat(lifecycle.isRunning()).isFalse();
        assertThat(lifecycle.cluster().nodes()).isEmpty();
    }

    @Test
    void startAfterDestroyShouldFailBecauseClientsHoldTheOldAddresses() {
        lifecycle.afterPropertiesSet();
        lifecycle.destroy();

        assertThatIllegalStateException().isThrownBy(lifecycle::start)
                .withMessageContaining("cannot be restarted")
                .withMessageContaining(lifecycle.cluster().clusterName());
    }

    @Test
    void seedsWhenNotRunningShouldFailNamingTheState() {
        assertThatIllegalStateException().isThrownBy(lifecycle::seeds).withMessageContaining("NEW");
    }

    @Test
    void startShouldLogOneInfoLineSayingTheClusterIsPrivateWithItsNodesCopiesAndBudget() {
        ZarisEmbeddedClusterLifecycle threeNodes = new ZarisEmbeddedClusterLifecycle(EmbeddedCluster.builder()
                .nodes(3).replicationFactor(2).layout(PartitionLayout.of(64, 8))
                .memory(MemoryOptions.builder().maxBytes(64L * 1024 * 1024).build()).build());
        Logger logger = (Logger) LoggerFactory.getLogger(ZarisEmbeddedClusterLifecycle.class);
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        logger.addAppender(events);
        try {
            threeNodes.afterPropertiesSet();
            threeNodes.start();
            threeNodes.stop();
            threeNodes.start();
        } finally {
            threeNodes.destroy();
            logger.detachAppender(events);
        }

        List<ILoggingEvent> infos = events.list.stream().filter(event -> event.getLevel() == Level.INFO).toList();
        assertThat(infos).hasSize(1);
        assertThat(infos.get(0).getFormattedMessage())
                .contains("a private cluster of 3 nodes inside this JVM, 2 copies of every entry")
                .contains("memory budget 64 MiB per node, 192 MiB in all")
                .contains("zaris.client.seeds");
    }

    @Test
    void oneNodeHoldsOneCopyWhateverTheReplicationFactorSays() {
        Logger logger = (Logger) LoggerFactory.getLogger(ZarisEmbeddedClusterLifecycle.class);
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        logger.addAppender(events);
        try {
            lifecycle.afterPropertiesSet();
        } finally {
            logger.detachAppender(events);
        }

        assertThat(events.list).singleElement().extracting(ILoggingEvent::getFormattedMessage).asString()
                .contains("a private cluster of 1 node inside this JVM, 1 copy of every entry");
    }

    @Test
    void shouldStartEarlyAndNeverPause() {
        assertThat(lifecycle.getPhase()).isEqualTo(ZarisEmbeddedClusterLifecycle.PHASE).isNegative();
        assertThat(lifecycle.isAutoStartup()).isTrue();
        assertThat(lifecycle.isPauseable()).isFalse();
    }
}
