package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.model.NodeAddress;
import io.zaris.protocol.MalformedRequestException;
import java.util.Arrays;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
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

    /**
     * Cluster messages carry no protocol version: a newer release may append fields, which this decoder does not
     * read, so nodes of two releases still understand each other's hellos during a rolling upgrade.
     */
    @Test
    void aHelloWithAFieldAppendedByANewerReleaseStillDecodes() throws MalformedRequestException {
        ClusterMessages.NodeHello hello = new ClusterMessages.NodeHello("n2", new NodeAddress("10.0.0.2", 7400), "inc-2", 9);
        byte[] encoded = ClusterMessages.encodeHello(hello);
        byte[] withAppendedField = Arrays.copyOf(encoded, encoded.length + 4);

        assertThat(ClusterMessages.decode(withAppendedField)).isEqualTo(hello);
    }

    /** A message type of a newer release is refused by name, so the member logs and ignores it. */
    @Test
    void aMessageTypeOfANewerReleaseIsRefusedNamingIt() {
        assertThatThrownBy(() -> ClusterMessages.decode(new byte[] {(byte) 200, 0, 0, 0, 1}))
                .isInstanceOf(MalformedRequestException.class)
                .hasMessageContaining("unknown cluster message type 200");
    }

    @Test
    void majorityChecksRoundTrip() throws MalformedRequestException {
        assertThat(ClusterMessages.decode(ClusterMessages.encodeLease(ClusterMessages.MAJORITY_CHECK, 5)))
                .isEqualTo(new ClusterMessages.LeaseMessage(ClusterMessages.MAJORITY_CHECK, 5));
        assertThat(ClusterMessages.decode(ClusterMessages.encodeLease(ClusterMessages.MAJORITY_CONFIRMED, 5)))
                .isEqualTo(new ClusterMessages.LeaseMessage(ClusterMessages.MAJORITY_CONFIRMED, 5));
    }

    @Test
    void aDesertionReportNamesTheCoordinatorItsSenderStoppedFollowing() throws MalformedRequestException {
        assertThat(ClusterMessages.decode(ClusterMessages.encodeDeserted("n1")))
                .isEqualTo(new ClusterMessages.Deserted("n1"));
    }

    @Test
    void aGoodbyeRoundTrips() throws MalformedRequestException {
        assertThat(ClusterMessages.decode(ClusterMessages.encodeGoodbye())).isEqualTo(new ClusterMessages.Goodbye());
    }
}
