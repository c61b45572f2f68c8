package io.zaris.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.protocol.OpCode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Who may send the operator commands: any logged-in principal that may write, nobody else. */
@Tag("unit")
class AdminAccessTests {

    private static final Principal READ_WRITE = new Principal("ops", false, false);
    private static final Principal READ_ONLY = new Principal("viewer", true, false);
    private static final Principal NODE = new Principal(Credentials.DEFAULT_USER, false, true);

    @Test
    void readWriteUsersTheSharedPasswordAndAnOpenNodeMaySendThem() {
        for (OpCode op : new OpCode[] {OpCode.ADMIN_DRAIN, OpCode.ADMIN_REBALANCE}) {
            assertThat(Access.refusal(READ_WRITE, op)).isNull();
            assertThat(Access.refusal(NODE, op)).isNull();
            assertThat(Access.refusal(Principal.UNAUTHENTICATED, op)).isNull();
        }
    }

    @Test
    void readOnlyUsersAndConnectionsThatHaveNotLoggedInMayNot() {
        for (OpCode op : new OpCode[] {OpCode.ADMIN_DRAIN, OpCode.ADMIN_REBALANCE}) {
            assertThat(Access.refusal(READ_ONLY, op)).contains("read-only").contains(op.name());
            assertThat(Access.refusal(null, op)).contains("authentication required");
        }
        // Reading the map stays open to read-only users: `admin map` works with their password.
        assertThat(Access.refusal(READ_ONLY, OpCode.CLUSTER_MAP)).isNull();
    }
}
