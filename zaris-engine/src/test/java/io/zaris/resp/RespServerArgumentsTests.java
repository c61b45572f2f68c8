package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.model.NodeAddress;
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

    @Test
    void respLimitsDefaultToRespLimitsDefaults() {
        NodeConfig config = ServerArguments.parse(new String[] {"--node-id", "n1"});
        assertThat(config.resp().limits()).isEqualTo(RespLimits.defaults());
    }

    @Test
    void respLimitFlagsSetTheListenersLimits() {
        NodeConfig config = ServerArguments.parse(new String[] {"--node-id", "n1", "--resp-max-bulk-bytes", "1m",
                "--resp-max-args", "100", "--resp-max-inline-bytes=4096"});
        assertThat(config.resp().limits()).isEqualTo(new RespLimits(1048576, 100, 4096, RespLimits.DEFAULT_MAX_COMMAND_BYTES));
    }

    @Test
    void aBulkLimitAboveTheCommandTotalRaisesTheTotalWithIt() {
        NodeConfig config = ServerArguments.parse(new String[] {"--node-id", "n1", "--resp-max-bulk-bytes", "128M"});
        assertThat(config.resp().limits().maxBulkBytes()).isEqualTo(134217728);
        assertThat(config.resp().limits().maxCommandBytes()).isEqualTo(134217728L);
    }

    @Test
    void badRespLimitsNameTheOptionAndTheRange() {
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--resp-max-bulk-bytes", "0"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--resp-max-bulk-bytes must be in 1.." + RespLimits.MAX_BULK_BYTES + " bytes but was '0'");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--resp-max-bulk-bytes", "2g"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--resp-max-bulk-bytes must be in 1.." + RespLimits.MAX_BULK_BYTES + " bytes but was '2g'");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--resp-max-bulk-bytes", "lots"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--resp-max-bulk-bytes must be a size such as 65536, 64k or 32m but was 'lots'");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--resp-max-args", "-5"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("--resp-max-args must be in 1..");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--resp-max-inline-bytes", "15"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("--resp-max-inline-bytes must be in 16..");
    }

    @Test
    void respLimitsAreCheckedEvenWhenRespIsOff() {
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--resp-port", "off",
                "--resp-max-args", "none"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--resp-max-args");
    }
}
