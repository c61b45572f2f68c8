package io.zaris.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ClusterSecretTests {

    private static final String SECRET = "a long random cluster secret";

    @Test
    void theSameSecretDerivesTheSameKeysOnEveryNode() {
        ClusterSecret one = ClusterSecret.of(SECRET);
        ClusterSecret other = ClusterSecret.of(SECRET);

        assertThat(one.encryptionKey().getEncoded()).isEqualTo(other.encryptionKey().getEncoded()).hasSize(32);
        assertThat(one.encryptionKey().getAlgorithm()).isEqualTo("AES");
        byte[] message = "join".getBytes(StandardCharsets.UTF_8);
        assertThat(other.verify(message, one.sign(message))).isTrue();
    }

    @Test
    void anotherSecretDerivesOtherKeysAndItsSignaturesDoNotVerify() {
        ClusterSecret one = ClusterSecret.of(SECRET);
        ClusterSecret other = ClusterSecret.of(SECRET + "!");
        byte[] message = "join".getBytes(StandardCharsets.UTF_8);

        assertThat(one.encryptionKey().getEncoded()).isNotEqualTo(other.encryptionKey().getEncoded());
        assertThat(one.verify(message, other.sign(message))).isFalse();
        assertThat(one.verify("other".getBytes(StandardCharsets.UTF_8), one.sign(message))).isFalse();
        assertThat(one.verify(message, null)).isFalse();
    }

    @Test
    void signingKeyIsNotTheEncryptionKey() {
        ClusterSecret secret = ClusterSecret.of(SECRET);
        byte[] message = new byte[0];

        assertThat(secret.sign(message)).isNotEqualTo(secret.encryptionKey().getEncoded());
    }

    @Test
    void shortSecretIsRefused() {
        assertThatThrownBy(() -> ClusterSecret.of("short")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least " + ClusterSecret.MIN_LENGTH + " characters");
        assertThatThrownBy(() -> ClusterSecret.of(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void toStringHidesTheSecret() {
        assertThat(ClusterSecret.of(SECRET).toString()).doesNotContain(SECRET).contains("hidden");
    }
}
