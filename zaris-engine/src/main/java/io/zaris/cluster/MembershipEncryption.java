package io.zaris.cluster;

import io.zaris.security.ClusterSecret;
import org.jgroups.JChannel;
import org.jgroups.protocols.AUTH;
import org.jgroups.protocols.SYM_ENCRYPT;
import org.jgroups.protocols.TP;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.stack.Protocol;
import org.jgroups.stack.ProtocolStack;

/**
 * Adds the cluster secret to a membership stack before it connects:
 * <ul>
 *   <li>{@code SYM_ENCRYPT} right above the transport, keyed with {@link ClusterSecret#encryptionKey()}
 *       (AES-256, CBC with a random IV per message). Every protocol above it — discovery, merge, failure
 *       detection heartbeats, group membership and Zaris' own messages — has its payloads encrypted, and a
 *       message under another key is dropped: its key version differs and its sender is not a member.</li>
 *   <li>{@code AUTH} right below {@code GMS}, with a {@link ClusterSecretToken}: a join or merge request, and the
 *       coordinator's answer, must carry an HMAC of the sender's address under the secret. This also covers
 *       requests without a payload, which {@code SYM_ENCRYPT} passes unencrypted.</li>
 * </ul>
 * What stays readable on the wire: JGroups' own headers (sequence numbers, the join's HMAC), message sizes
 * and timing. The TCP failure detector's socket ({@code FD_SOCK2}) carries no data.
 *
 * <p>The protocols are inserted after the XML stack was built (the XML cannot hold a key) and initialised here,
 * because the stack initialised its other protocols already.
 */
final class MembershipEncryption {

    /** JGroups' default is AES in ECB mode without an IV; CBC with a fresh 16-byte IV hides repeated messages. */
    static final String CIPHER = "AES/CBC/PKCS5Padding";
    static final int IV_BYTES = 16;

    private MembershipEncryption() {
    }

    static void apply(JChannel channel, ClusterSecret secret) throws Exception {
        ProtocolStack stack = channel.getProtocolStack();
        SYM_ENCRYPT encrypt = new SYM_ENCRYPT();
        encrypt.symAlgorithm(CIPHER);
        encrypt.symIvLength(IV_BYTES);
        encrypt.setSecretKey(secret.encryptionKey());
        stack.insertProtocol(encrypt, ProtocolStack.Position.ABOVE, TP.class);
        initialise(encrypt, stack);

        ClusterSecretToken token = new ClusterSecretToken(secret);
        AUTH auth = new AUTH();
        auth.setAuthToken(token);
        token.setAuth(auth);
        stack.insertProtocol(auth, ProtocolStack.Position.BELOW, GMS.class);
        initialise(auth, stack);
    }

    private static void initialise(Protocol protocol, ProtocolStack stack) throws Exception {
        protocol.setProtocolStack(stack);
        protocol.init();
    }
}
