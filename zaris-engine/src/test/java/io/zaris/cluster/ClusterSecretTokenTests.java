package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.security.ClusterSecret;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.jgroups.Address;
import org.jgroups.EmptyMessage;
import org.jgroups.protocols.AUTH;
import org.jgroups.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ClusterSecretTokenTests {

    private static final ClusterSecret SECRET = ClusterSecret.of("the cluster's shared secret");
    private static final ClusterSecret OTHER = ClusterSecret.of("somebody else's cluster secret");

    @Test
    void aJoinerWithTheSecretIsAccepted() throws Exception {
        UUID joiner = UUID.randomUUID();

        assertThat(verifier(SECRET).authenticate(received(SECRET, joiner), from(joiner))).isTrue();
    }

    @Test
    void aJoinerWithAnotherSecretIsRefused() throws Exception {
        UUID joiner = UUID.randomUUID();

        assertThat(verifier(SECRET).authenticate(received(OTHER, joiner), from(joiner))).isFalse();
    }

    @Test
    void aCapturedTokenDoesNotWorkForAnotherAddress() throws Exception {
        UUID joiner = UUID.randomUUID();

        assertThat(verifier(SECRET).authenticate(received(SECRET, joiner), from(UUID.randomUUID()))).isFalse();
    }

    @Test
    void aReceivedTokenCannotVerifyAnything() throws Exception {
        UUID joiner = UUID.randomUUID();
        ClusterSecretToken received = received(SECRET, joiner);

        assertThat(received.authenticate(received(SECRET, joiner), from(joiner))).isFalse();
    }

    /** A merge leader's MERGE_REQ and MERGE_RSP to itself are looped back with the sender's own token, unserialised. */
    @Test
    void aRequestThisNodeSentItselfIsAccepted() {
        UUID self = UUID.randomUUID();
        ClusterSecretToken own = configured(SECRET, self);

        assertThat(own.authenticate(own, from(self))).isTrue();
    }

    @Test
    void theUnserialisedOwnTokenProvesNothingForAnotherSource() {
        UUID self = UUID.randomUUID();
        ClusterSecretToken own = configured(SECRET, self);

        assertThat(own.authenticate(own, from(UUID.randomUUID()))).isFalse();
    }

    @Test
    void aTruncatedSignatureIsUnreadable() {
        byte[] bytes = {0, 3, 1, 2, 3};

        assertThatThrownBy(() -> new ClusterSecretToken().readFrom(new DataInputStream(new ByteArrayInputStream(bytes))))
                .isInstanceOf(IOException.class).hasMessageContaining("expected 32");
    }

    /** The token a node with {@code secret} and membership address {@code self} configures, as AUTH holds it. */
    private static ClusterSecretToken configured(ClusterSecret secret, Address self) {
        ClusterSecretToken token = new ClusterSecretToken(secret);
        AUTH auth = new AUTH();
        auth.setAddress(self);
        token.setAuth(auth);
        return token;
    }

    /** What the joiner with {@code secret} puts on the wire, as the coordinator's JGroups reads it back. */
    private static ClusterSecretToken received(ClusterSecret secret, Address joiner) throws Exception {
        ClusterSecretToken sent = configured(secret, joiner);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        sent.writeTo(new DataOutputStream(bytes));
        assertThat(bytes.size()).isEqualTo(sent.size());
        ClusterSecretToken read = new ClusterSecretToken();
        read.readFrom(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        return read;
    }

    private static ClusterSecretToken verifier(ClusterSecret secret) {
        return new ClusterSecretToken(secret);
    }

    private static EmptyMessage from(Address source) {
        EmptyMessage message = new EmptyMessage();
        message.setSrc(source);
        return message;
    }
}
