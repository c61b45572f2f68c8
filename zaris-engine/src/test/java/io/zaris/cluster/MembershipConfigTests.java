package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.jgroups.JChannel;
import org.jgroups.protocols.FD_SOCK2;
import org.junit.jupiter.api.Test;

class MembershipConfigTests {

    private static MembershipConfig.Tcp tcp(Duration escalation) {
        return new MembershipConfig.Tcp("c", "127.0.0.1", 7201, List.of(new NodeAddress("127.0.0.1", 7201)), escalation);
    }

    /** JGroups builds and initialises the stack (it checks every attribute name and the protocols' own constraints). */
    @Test
    void jgroupsBuildsTheStackWithFailureDetectionSocketsOnTheMembershipAddress() throws Exception {
        MembershipConfig.Tcp config = tcp(MembershipConfig.Tcp.DEFAULT_ESCALATION_TIMEOUT);

        try (JChannel channel = new JChannel(new ByteArrayInputStream(config.toJGroupsXml().getBytes(StandardCharsets.UTF_8)))) {
            assertThat(channel.getProtocolStack().<FD_SOCK2>findProtocol(FD_SOCK2.class).getBindAddress())
                    .as("FD_SOCK2 names itself by the membership address, not 0.0.0.0")
                    .isEqualTo(InetAddress.getByName("127.0.0.1"));
        }
    }
}
