package io.zaris.security;

import io.zaris.protocol.OpCode;
import java.util.EnumSet;
import java.util.Set;

/** Which native operations a principal may send. Pure. */
public final class Access {

    /** Operations only nodes send each other: they change replica state or reveal it. */
    static final Set<OpCode> NODE_OPERATIONS = EnumSet.of(OpCode.REPLICATE, OpCode.REPLICATE_BATCH, OpCode.SNAPSHOT, OpCode.PARTITION_STATE, OpCode.PULL,
            OpCode.SEGMENT_DIGESTS, OpCode.ADVANCE_EPOCH, OpCode.PUBLISH,
            OpCode.HAND_OVER_FENCE);
    /** Operator commands: they change where the cluster keeps its data, so a read-only user may not send them. */
    static final Set<OpCode> ADMIN_OPERATIONS = EnumSet.of(OpCode.ADMIN_DRAIN, OpCode.ADMIN_REBALANCE);

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
        if (ADMIN_OPERATIONS.contains(op) && principal.readOnly()) {
            return "user '" + principal.name() + "' is read-only and may not send operator command " + op;
        }
        return null;
    }
}
