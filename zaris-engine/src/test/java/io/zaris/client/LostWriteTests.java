package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class LostWriteTests {

    @Test
    void aSingleLossNamesItsKeyRevisionAndWhatTheNewOwnerInherited() {
        String line = LostWrite.describe(List.of(new LostWrite("user:7", 23, 190, 4, 121, 5, 118)), 10);

        assertThat(line).isEqualTo("1 acknowledged ASYNC write was lost when epoch 5 took partition 23 over: "
                + "'user:7' at revision 121 (the new owner inherited 118)");
    }

    @Test
    void everyLostKeyIsNamedUpToTheBoundAndTheRestAreCounted() {
        List<LostWrite> lost = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            lost.add(new LostWrite("k" + i, 3, 24 + i, 2, 50 + i, 3, 49));
        }

        assertThat(LostWrite.describe(lost, 10)).isEqualTo("4 acknowledged ASYNC writes were lost when epoch 3 took "
                + "partition 3 over: 'k0' at revision 50 (the new owner inherited 49), 'k1' at revision 51 (the new "
                + "owner inherited 49), 'k2' at revision 52 (the new owner inherited 49), 'k3' at revision 53 (the new "
                + "owner inherited 49)");
        assertThat(LostWrite.describe(lost, 2)).endsWith("'k1' at revision 51 (the new owner inherited 49) and 2 more")
                .doesNotContain("'k2'");
    }
}
