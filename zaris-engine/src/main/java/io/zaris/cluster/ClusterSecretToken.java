package io.zaris.cluster;

import io.zaris.security.ClusterSecret;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.jgroups.Address;
import org.jgroups.Message;
import org.jgroups.auth.AuthToken;
import org.jgroups.util.UUID;

/**
 * JGroups {@code AUTH} token proving that the sender of a join or merge request (or of the coordinator's
 * answer) knows the cluster secret: an HMAC-SHA256, under the secret's signing key, of a fixed context string
 * and the sender's 16-byte membership address. The receiver recomputes it over the message's source address
 * and compares in constant time, so a captured token is useless for any other address.
 *
 * <p>Two kinds of instances exist. The one a node configures holds the {@link ClusterSecret}: it signs what it
 * sends and checks what it receives. The ones JGroups creates reflectively (hence the public no-argument
 * constructor) to deserialise a received header only carry the signature to check.
 *
 * <p>Thread-safety: the configured instance is immutable apart from JGroups' {@code auth} back-reference, set
 * once before the channel connects; signing happens on whichever thread serialises the message.
 */
public final class ClusterSecretToken extends AuthToken {

    /** Binds the signature to this use, so it can never be replayed as a signature of anything else. */
    private static final byte[] CONTEXT = "zaris-membership-auth:v1:".getBytes(StandardCharsets.UTF_8);
    /** HMAC-SHA256 output. */
    static final int SIGNATURE_BYTES = 32;

    private final ClusterSecret secret;
    /** Set only on received instances ({@link #readFrom}). */
    private byte[] signature;

    /** For JGroups only: reads a received token. */
    public ClusterSecretToken() {
        this.secret = null;
    }

    ClusterSecretToken(ClusterSecret secret) {
        this.secret = secret;
    }

    @Override
    public String getName() {
        return "zaris-cluster-secret";
    }

    @Override
    public int size() {
        return Short.BYTES + SIGNATURE_BYTES;
    }

    /**
     * Whether {@code token}, found on {@code message}, proves that the message's source knows the secret. A token
     * that is this very instance was never serialised: the message is one this node sent itself and JGroups looped
     * back without it crossing the network. A merge leader sends its MERGE_REQ to every subgroup coordinator,
     * itself included, and answers it with a MERGE_RSP to itself; refusing those made every merge fail with "merge
     * leader rejected merge request", so a healed partition never merged back with the secret on.
     */
    @Override
    public boolean authenticate(AuthToken token, Message message) {
        if (token == this) {
            return auth != null && auth.getAddress() != null && auth.getAddress().equals(message.getSrc());
        }
        return secret != null && token instanceof ClusterSecretToken received
                && secret.verify(signedBytes(message.getSrc()), received.signature);
    }

    @Override
    public void writeTo(DataOutput out) throws IOException {
        if (secret == null || auth == null || auth.getAddress() == null) {
            throw new IOException("this token has no secret or local address to sign with");
        }
        byte[] signed = secret.sign(signedBytes(auth.getAddress()));
        out.writeShort(signed.length);
        out.write(signed);
    }

    @Override
    public void readFrom(DataInput in) throws IOException {
        int length = in.readUnsignedShort();
        if (length != SIGNATURE_BYTES) {
            throw new IOException("cluster secret signature of " + length + " bytes; expected " + SIGNATURE_BYTES);
        }
        signature = new byte[length];
        in.readFully(signature);
    }

    /** The context and the address's 128 bits; an address that is not a UUID signs as nothing valid. */
    static byte[] signedBytes(Address address) {
        ByteBuffer bytes = ByteBuffer.allocate(CONTEXT.length + 2 * Long.BYTES).put(CONTEXT);
        if (address instanceof UUID uuid) {
            bytes.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
        }
        return bytes.array();
    }
}
