package io.zaris.netbed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.netbed.PacketFilter.Block;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class PacketFilterTests {

    private static String address(int host) {
        return "10.0.0." + (host == NetworkBed.HOST_SIDE ? 1 : 10 + host);
    }

    @Test
    void aBlockIsEnforcedSilentlyAtTheReceiversInput() {
        String script = PacketFilter.script(2, Set.of(new Block(1, 2)), PacketFilterTests::address);

        assertThat(script).contains("chain input", "ip saddr 10.0.0.11 drop").doesNotContain("chain output");
        assertThat(PacketFilter.script(1, Set.of(new Block(1, 2)), PacketFilterTests::address))
                .doesNotContain("drop");
    }

    @Test
    void aBlockTowardsTheHostSideIsEnforcedAtTheSendersOutput() {
        String script = PacketFilter.script(3, Set.of(new Block(3, NetworkBed.HOST_SIDE)), PacketFilterTests::address);

        assertThat(script).contains("chain output", "ip daddr 10.0.0.1 drop").doesNotContain("chain input");
    }

    @Test
    void theScriptReplacesTheTableInOneTransactionAndOnlyDeletesItWhenNothingIsBlocked() {
        String blocking = PacketFilter.script(2, Set.of(new Block(1, 2)), PacketFilterTests::address);
        String clear = PacketFilter.script(2, Set.of(), PacketFilterTests::address);

        assertThat(blocking).startsWith("table inet zaris_netbed\ndelete table inet zaris_netbed\ntable inet zaris_netbed {");
        assertThat(clear).isEqualTo("table inet zaris_netbed\ndelete table inet zaris_netbed\n");
    }

    @Test
    void isolatingAGroupCutsItFromEveryOtherHostBothWaysButNotWithin() {
        Set<Block> blocks = PacketFilter.isolating(Set.of(1, 2), List.of(1, 2, 3, 4, NetworkBed.HOST_SIDE));

        assertThat(blocks).containsExactlyInAnyOrder(
                new Block(1, 3), new Block(3, 1), new Block(1, 4), new Block(4, 1), new Block(1, 0), new Block(0, 1),
                new Block(2, 3), new Block(3, 2), new Block(2, 4), new Block(4, 2), new Block(2, 0), new Block(0, 2));
    }

    @Test
    void aLossyHostLosesAShareOfWhatItReceivesAndOfWhatTheOthersReceiveFromIt() {
        Map<Integer, Double> loss = Map.of(1, 5.0);

        assertThat(PacketFilter.script(1, Set.of(), loss, PacketFilterTests::address))
                .contains("    numgen random mod 10000 < 500 drop\n", "ip daddr 10.0.0.1 numgen random mod 10000 < 500 drop");
        assertThat(PacketFilter.script(2, Set.of(), loss, PacketFilterTests::address))
                .contains("ip saddr 10.0.0.11 numgen random mod 10000 < 500 drop").doesNotContain("chain output");
    }

    @Test
    void aHostCannotBeCutFromItself() {
        assertThatThrownBy(() -> new Block(2, 2)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2");
    }
}
