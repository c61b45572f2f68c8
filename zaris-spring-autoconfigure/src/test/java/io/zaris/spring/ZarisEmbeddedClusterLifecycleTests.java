package io.zaris.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import io.zaris.embedded.EmbeddedCluster;
import io.zaris.placement.PartitionLayout;
import io.zaris.server.ZarisNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

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
    void shouldStartEarlyAndNeverPause() {
        assertThat(lifecycle.getPhase()).isEqualTo(ZarisEmbeddedClusterLifecycle.PHASE).isNegative();
        assertThat(lifecycle.isAutoStartup()).isTrue();
        assertThat(lifecycle.isPauseable()).isFalse();
    }
}
