package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.NodeAddress;
import java.io.ByteArrayInputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.jgroups.JChannel;
import org.jgroups.protocols.FD_ALL3;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.protocols.MERGE3;
import org.jgroups.protocols.TCP_NIO2;
import org.jgroups.protocols.VERIFY_SUSPECT2;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class MembershipConfigTests {

    private static MembershipConfig.Tcp tcp(Duration escalation) {
        return new MembershipConfig.Tcp("c", "127.0.0.1", 7201, List.of(new NodeAddress("127.0.0.1", 7201)), escalation);
    }

    /**
     * Excluded no earlier than the escalation timeout after its last message (a cut-off leader may serve for twice
     * its lease, which is the escalation timeout) and no later than one heartbeat interval after that.
     */
    @Test
    void aSilentMemberIsExcludedWithinOneHeartbeatAfterTheEscalationTimeout() {
        for (Duration escalation : List.of(Duration.ofMillis(3000), Duration.ofSeconds(6), Duration.ofSeconds(10),
                Duration.ofSeconds(30))) {
            MembershipConfig.Tcp config = tcp(escalation);

            assertThat(config.suspectMillis() + MembershipConfig.Tcp.VERIFY_MILLIS)
                    .as("silence until suspected and the verification, for %s", escalation)
                    .isEqualTo(escalation.toMillis());
            assertThat(config.ownerLease().multipliedBy(2)).isLessThanOrEqualTo(escalation);
            assertThat(config.heartbeatMillis()).isLessThanOrEqualTo(config.suspectMillis() / 4)
                    .isLessThanOrEqualTo(MembershipConfig.Tcp.HEARTBEAT_MILLIS);
        }
    }

    @Test
    void theDefaultStackChecksForSilenceTwiceASecond() {
        MembershipConfig.Tcp config = tcp(MembershipConfig.Tcp.DEFAULT_ESCALATION_TIMEOUT);

        assertThat(config.heartbeatMillis()).isEqualTo(500);
        assertThat(config.suspectMillis()).isEqualTo(9750);
    }

    /** JGroups builds and initialises the stack (it checks every attribute name and the protocols' own constraints). */
    @Test
    void jgroupsBuildsTheStackWithANonBlockingTransport() throws Exception {
        MembershipConfig.Tcp config = tcp(MembershipConfig.Tcp.DEFAULT_ESCALATION_TIMEOUT);

        try (JChannel channel = new JChannel(new ByteArrayInputStream(config.toJGroupsXml().getBytes(StandardCharsets.UTF_8)))) {
            TCP_NIO2 transport = channel.getProtocolStack().findProtocol(TCP_NIO2.class);
            assertThat(transport).as("the transport").isNotNull();
            assertThat(transport.getConnExpireTime()).isEqualTo(3000);
            assertThat(transport.getReaperInterval()).isEqualTo(1000);
            FD_ALL3 detector = channel.getProtocolStack().findProtocol(FD_ALL3.class);
            assertThat(detector.getTimeout()).isEqualTo(9750);
            assertThat(detector.getInterval()).isEqualTo(500);
            assertThat(channel.getProtocolStack().<VERIFY_SUSPECT2>findProtocol(VERIFY_SUSPECT2.class).getTimeout())
                    .isEqualTo(250);
            assertThat(channel.getProtocolStack().<MERGE3>findProtocol(MERGE3.class).getMaxInterval()).isEqualTo(2000);
            assertThat(channel.getProtocolStack().<FD_SOCK2>findProtocol(FD_SOCK2.class).getBindAddress())
                    .as("FD_SOCK2 names itself by the membership address, not 0.0.0.0")
                    .isEqualTo(InetAddress.getByName("127.0.0.1"));
        }
    }
}
