package io.zaris.embedded;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Safe default of the embedded cluster: its ports stay on loopback, whatever the application asks. */
@Tag("unit")
class EmbeddedClusterBuilderTests {

    @Test
    void theWildcardAddressIsRefused() {
        assertThatThrownBy(() -> EmbeddedCluster.builder().host("0.0.0.0"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("an embedded cluster binds to loopback only, not '0.0.0.0'; run standalone servers to serve other hosts");
    }

    @Test
    void aNetworkAddressIsRefused() {
        assertThatThrownBy(() -> EmbeddedCluster.builder().host("10.1.2.3"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("loopback only, not '10.1.2.3'");
        assertThatThrownBy(() -> EmbeddedCluster.builder().host(""))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void loopbackAddressesAreAccepted() {
        assertThatCode(() -> EmbeddedCluster.builder().host("127.0.0.1").host("localhost").host("127.0.0.2"))
                .doesNotThrowAnyException();
    }
}
