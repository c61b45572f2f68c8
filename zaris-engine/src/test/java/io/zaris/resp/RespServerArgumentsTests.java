package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.cluster.NodeAddress;
import io.zaris.server.NodeConfig;
import io.zaris.server.ServerArguments;
import org.junit.jupiter.api.Test;

class RespServerArgumentsTests {

    @Test
    void standaloneNodesSpeakRespAtTheDataPortPlusTheDefaultOffset() {
        NodeConfig config = ServerArguments.parse(new String[] {"--node-id", "n1", "--port", "7101"});
        assertThat(config.resp().port()).isEqualTo(8101);
        assertThat(config.resp().host()).isEqualTo("127.0.0.1");
        assertThat(config.resp().required()).isFalse();
        assertThat(config.resp().peerPorts().respPortOf("n2", new NodeAddress("10.0.0.2", 7102))).isEqualTo(8102);
    }

    @Test
    void anExplicitRespPortIsRequiredAndSetsTheClusterWideOffset() {
        NodeConfig config = ServerArguments.parse(new String[] {"--node-id", "n1", "--port", "7101", "--resp-port", "6379",
                "--resp-host", "0.0.0.0", "--allow-insecure"});
        assertThat(config.resp().port()).isEqualTo(6379);
        assertThat(config.resp().host()).isEqualTo("0.0.0.0");
        assertThat(config.resp().required()).isTrue();
        assertThat(config.resp().peerPorts().respPortOf("n2", new NodeAddress("h", 7102))).isEqualTo(6380);
    }

    @Test
    void offOrZeroDisablesResp() {
        assertThat(ServerArguments.parse(new String[] {"--node-id", "n1", "--resp-port", "off"}).resp()).isNull();
        assertThat(ServerArguments.parse(new String[] {"--node-id", "n1", "--resp-port", "0"}).resp()).isNull();
    }

    @Test
    void aBadRespPortNamesTheOption() {
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--resp-port", "70000"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--resp-port");
    }
}
