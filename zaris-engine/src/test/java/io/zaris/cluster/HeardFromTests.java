package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.jgroups.Address;
import org.jgroups.EmptyMessage;
import org.jgroups.Message;
import org.jgroups.stack.Protocol;
import org.jgroups.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** When a member last heard each other member. */
@Tag("unit")
class HeardFromTests {

    private static final long SECOND = 1_000_000_000L;

    private long now = 10 * SECOND;
    private final HeardFrom heardFrom = new HeardFrom(() -> now);
    private final Address coordinator = UUID.randomUUID();

    HeardFromTests() {
        heardFrom.setUpProtocol(new Protocol() {
            @Override
            public Object up(Message message) {
                return null;
            }
        });
    }

    private void hear() {
        heardFrom.up(new EmptyMessage().setSrc(coordinator));
    }

    @Test
    void aMemberNeverHeardWasNeverHeard() {
        assertThat(heardFrom.lastHeard(coordinator)).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void everyMessageMovesTheLastHeardTime() {
        hear();
        now += SECOND / 2;
        hear();
        assertThat(heardFrom.lastHeard(coordinator)).isEqualTo(now);
    }
}
