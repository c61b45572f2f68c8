package io.zaris.server;

import io.zaris.model.HashOp;
import java.util.function.Supplier;

/**
 * Which {@code HASH_WRITE} requests an active serves while a replica of the partition still speaks protocol version 3
 * (mid-upgrade), whose replication knows only string changes (a put, a removal). Collection writes are refused then:
 * their changes would not reach that replica. The whole-key SET and EXPIRE ops, which the RESP port sends for strings
 * too (SET … NX/XX/KEEPTTL/GET, GETSET, PERSIST, EXPIRE … NX/XX/GT/LT), make only string changes on a key that holds a
 * string or nothing, so they are served for such a key, as the string commands were before those ops existed. RENAME
 * (RENAMENX) of such a key is served too: beside such a replica it ships the removals and the put it makes instead of
 * the one rename change of version 4 (see {@code RequestHandler}), all string changes; and APPEND, which on such a key
 * makes one put. The key
 * cannot become a collection between this check and the write: no collection write is served while the gate is shut.
 * A pure decision.
 */
final class OlderReplicaGate {

    private OlderReplicaGate() {
    }

    /**
     * Whether {@code op} on a key whose type {@code keyType} reads (TYPE's answer) may be served with such a replica;
     * the type is read only for SET, EXPIRE, APPEND and RENAME (whose key is the source).
     */
    static boolean admits(HashOp op, Supplier<String> keyType) {
        if (op != HashOp.SET && op != HashOp.EXPIRE && op != HashOp.RENAME && op != HashOp.APPEND) {
            return false;
        }
        String type = keyType.get();
        return type.equals("string") || type.equals("none");
    }
}
