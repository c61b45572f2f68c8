package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.model.NodeAddress;
import io.zaris.protocol.MalformedRequestException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ClusterMessagesTests {

    @Test
    void aHelloCarriesTheMapVersionItsSenderHolds() throws MalformedRequestException {
        ClusterMessages.NodeHello holder = new ClusterMessages.NodeHello("n3", new NodeAddress("10.0.0.3", 7400), "inc-3", 4);
        ClusterMessages.NodeHello newcomer = new ClusterMessages.NodeHello("n1", new NodeAddress("10.0.0.1", 7400), "inc-1", 0);

        assertThat(ClusterMessages.decode(ClusterMessages.encodeHello(holder))).isEqualTo(holder);
        assertThat(holder.holdsMap()).isTrue();
        assertThat(((ClusterMessages.NodeHello) ClusterMessages.decode(ClusterMessages.encodeHello(newcomer))).holdsMap())
                .isFalse();
    }

    @Test
    void aTruncatedHelloIsRefusedRatherThanReadAsHoldingNoMap() {
        byte[] full = ClusterMessages.encodeHello(
                new ClusterMessages.NodeHello("n3", new NodeAddress("10.0.0.3", 7400), "inc-3", 4));

        assertThatThrownBy(() -> ClusterMessages.decode(Arrays.copyOf(full, full.length - 8)))
                .isInstanceOf(MalformedRequestException.class);
    }

    @Test
    void aLeaseGrantCarriesTheLeadersMapVersionAndAnOlderGrantDecodesWithNone() throws MalformedRequestException {
        Object grant = ClusterMessages.decode(ClusterMessages.encodeGrant(17, 42));
        assertThat(grant).isEqualTo(new ClusterMessages.LeaseMessage(ClusterMessages.LEASE_GRANT, 17, 42));

        Object older = ClusterMessages.decode(ClusterMessages.encodeLease(ClusterMessages.LEASE_GRANT, 17));
        assertThat(older).isEqualTo(new ClusterMessages.LeaseMessage(ClusterMessages.LEASE_GRANT, 17, 0));
    }

    @Test
    void majorityChecksRoundTrip() throws MalformedRequestException {
        assertThat(ClusterMessages.decode(ClusterMessages.encodeLease(ClusterMessages.MAJORITY_CHECK, 5)))
                .isEqualTo(new ClusterMessages.LeaseMessage(ClusterMessages.MAJORITY_CHECK, 5));
        assertThat(ClusterMessages.decode(ClusterMessages.encodeLease(ClusterMessages.MAJORITY_CONFIRMED, 5)))
                .isEqualTo(new ClusterMessages.LeaseMessage(ClusterMessages.MAJORITY_CONFIRMED, 5));
    }
}
