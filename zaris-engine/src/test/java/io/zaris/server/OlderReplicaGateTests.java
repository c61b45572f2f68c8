package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.HashOp;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class OlderReplicaGateTests {

    @Test
    void setExpireRenameAndAppendOfAStringOrNothingAreServedBesideAProtocol3Replica() {
        for (HashOp op : new HashOp[] {HashOp.SET, HashOp.EXPIRE, HashOp.RENAME, HashOp.APPEND}) {
            assertThat(OlderReplicaGate.admits(op, () -> "string")).as(op.name()).isTrue();
            assertThat(OlderReplicaGate.admits(op, () -> "none")).as(op.name()).isTrue();
            for (String collection : new String[] {"hash", "list", "set", "zset"}) {
                assertThat(OlderReplicaGate.admits(op, () -> collection)).as("%s on a %s", op, collection).isFalse();
            }
        }
    }

    @Test
    void everyOtherWriteStaysRefusedWithoutReadingTheKey() {
        for (HashOp op : HashOp.values()) {
            if (op.isWrite() && op != HashOp.SET && op != HashOp.EXPIRE && op != HashOp.RENAME && op != HashOp.APPEND) {
                assertThat(OlderReplicaGate.admits(op, () -> {
                    throw new AssertionError("the type of the key of " + op + " was read");
                })).as(op.name()).isFalse();
            }
        }
    }
}
