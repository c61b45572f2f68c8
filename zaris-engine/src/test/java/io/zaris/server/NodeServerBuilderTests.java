package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.protocol.ProtocolLimits;
import io.zaris.security.OutboundLimits;
import io.zaris.security.SecurityOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The data port's builder refuses a bad or missing part before anything is bound. */
@Tag("unit")
class NodeServerBuilderTests {

    @Test
    void bindingWithoutAnyPartNamesTheFirstSetterMissing() {
        assertThatThrownBy(() -> NodeServer.builder("a").bind())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the data port of node a needs listenOn(...)");
    }

    @Test
    void bindingWithSomePartsNamesTheNextSetterMissing() {
        NodeServer.Builder builder = NodeServer.builder("a")
                .listenOn("127.0.0.1", 0)
                .protocol(ProtocolLimits.defaults(), SecurityOptions.none(), OutboundLimits.defaults());

        assertThatThrownBy(builder::bind)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the data port of node a needs requests(...)");
    }

    @Test
    void aPortOutsideTheRangeIsRefused() {
        assertThatThrownBy(() -> NodeServer.builder("a").listenOn("127.0.0.1", 65_536))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("port must be within 0..65535, was 65536");
    }

    @Test
    void aNullPartIsRefusedByName() {
        assertThatThrownBy(() -> NodeServer.builder("a").requests(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("requests must not be null");
    }
}
