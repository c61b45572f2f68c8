package io.zaris.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secret every node of a cluster shares to authenticate and encrypt membership traffic, and the two
 * keys derived from it. Immutable and thread-safe; {@link #toString()} never shows the secret.
 *
 * <p>Derivation: PBKDF2 with HMAC-SHA256 over the secret's UTF-8 bytes, salt {@value #SALT}, {@value #ITERATIONS}
 * iterations, 512 bits of output. The first 256 bits are the AES key of the membership encryption, the last 256
 * bits the HMAC-SHA256 key that signs join and merge requests. Keeping the two apart means a signature never
 * reveals anything about the encryption key. The salt is fixed (nodes must derive the same keys without
 * talking to each other), so the iteration count is what slows down guessing a weak secret: use a long random
 * one (e.g. 32 bytes from {@code openssl rand -base64 32}).
 *
 * <p>Changing {@link #SALT}, {@link #ITERATIONS} or the split changes every key: nodes of different versions
 * would no longer see each other, so they are a compatibility contract.
 */
public final class ClusterSecret {

    /** Fixed PBKDF2 salt; versioned so a future derivation can change it deliberately. */
    public static final String SALT = "io.zaris.cluster-secret.v1";
    /** PBKDF2 iterations: about a tenth of a second per node start on a small machine. */
    public static final int ITERATIONS = 200_000;
    /** Shorter secrets are refused: they are too easy to guess offline from captured traffic. */
    public static final int MIN_LENGTH = 16;
    private static final int KEY_BYTES = 32;

    private final byte[] encryptionKey;
    private final byte[] signingKey;

    private ClusterSecret(byte[] derived) {
        this.encryptionKey = Arrays.copyOfRange(derived, 0, KEY_BYTES);
        this.signingKey = Arrays.copyOfRange(derived, KEY_BYTES, 2 * KEY_BYTES);
    }

    /**
     * Derives the keys of a secret.
     *
     * @throws IllegalArgumentException when the secret is shorter than {@value #MIN_LENGTH} characters
     */
    public static ClusterSecret of(String secret) {
        if (secret == null || secret.strip().length() < MIN_LENGTH) {
            throw new IllegalArgumentException("the cluster secret must have at least " + MIN_LENGTH
                    + " characters (use a long random string)");
        }
        PBEKeySpec spec = new PBEKeySpec(secret.toCharArray(), SALT.getBytes(StandardCharsets.UTF_8), ITERATIONS,
                2 * KEY_BYTES * 8);
        try {
            return new ClusterSecret(SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java 17 runtime has PBKDF2WithHmacSHA256", e);
        } finally {
            spec.clearPassword();
        }
    }

    /** The AES-256 key membership messages are encrypted with. */
    public SecretKey encryptionKey() {
        return new SecretKeySpec(encryptionKey, "AES");
    }

    /** HMAC-SHA256 of {@code message} under the signing key. */
    public byte[] sign(byte[] message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(signingKey, "HmacSHA256"));
            return mac.doFinal(message);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("every Java 17 runtime has HmacSHA256", e);
        }
    }

    /** Whether {@code signature} is this secret's signature of {@code message}; compares in constant time. */
    public boolean verify(byte[] message, byte[] signature) {
        return signature != null && MessageDigest.isEqual(sign(message), signature);
    }

    @Override
    public String toString() {
        return "ClusterSecret[<hidden>]";
    }
}
