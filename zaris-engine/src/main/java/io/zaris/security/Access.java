package io.zaris.security;

import io.zaris.protocol.OpCode;
import java.util.EnumSet;
import java.util.Set;

/** Which native operations a principal may send. Pure. */
public final class Access {

    /** Operations only nodes send each other: they change replica state or reveal it. */
    static final Set<OpCode> NODE_OPERATIONS = EnumSet.of(OpCode.REPLICATE, OpCode.SNAPSHOT, OpCode.PARTITION_STATE, OpCode.PULL);

    private Access() {
    }

    /**
     * Why {@code principal} may not send {@code op}, or {@code null} when it may.
     *
     * @param principal {@code null} when the connection has not logged in
     */
    public static String refusal(Principal principal, OpCode op) {
        if (principal == null) {
            return "authentication required: send AUTH after HELLO";
        }
        if (NODE_OPERATIONS.contains(op) && !principal.nodeAccess()) {
            return "user '" + principal.name() + "' may not send node-to-node operation " + op;
        }
        if (op.isWrite() && principal.readOnly()) {
            return "user '" + principal.name() + "' is read-only";
        }
        return null;
    }
}
