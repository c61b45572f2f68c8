package io.zaris.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The replica backlog: a share of the heap within fixed bounds unless set, and a set value as given. */
@Tag("unit")
class ReplicaBacklogSettingTests {

    private static final long MIB = 1024 * 1024;

    @Test
    void theAutomaticBacklogIsAThirtySecondOfTheHeapWithinOneAndSixtyFourMebibytes() {
        assertThat(ReplicationSettings.autoReplicaBacklog(128 * MIB)).isEqualTo(4 * MIB);
        assertThat(ReplicationSettings.autoReplicaBacklog(1536 * MIB)).isEqualTo(48 * MIB);
        assertThat(ReplicationSettings.autoReplicaBacklog(16 * MIB)).as("at least 1 MiB").isEqualTo(MIB);
        assertThat(ReplicationSettings.autoReplicaBacklog(8192 * MIB)).as("at most 64 MiB").isEqualTo(64 * MIB);
    }

    @Test
    void aSetBacklogIsUsedAsGivenAndSurvivesTheOtherSettingsChanges() {
        ReplicationSettings defaults = ReplicationSettings.defaults();
        assertThat(defaults.replicaBacklogBytes()).as("automatic unless set").isZero();
        assertThat(defaults.effectiveReplicaBacklog(128 * MIB)).isEqualTo(4 * MIB);

        ReplicationSettings set = defaults.withReplicaBacklog(256 * 1024).withHealCooldown(java.time.Duration.ofSeconds(2));
        assertThat(set.effectiveReplicaBacklog(128 * MIB)).isEqualTo(256 * 1024);
        assertThatThrownBy(() -> defaults.withReplicaBacklog(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("replicaBacklogBytes");
    }
}
