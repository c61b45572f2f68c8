package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.jgroups.Address;
import org.jgroups.EmptyMessage;
import org.jgroups.Message;
import org.jgroups.stack.Protocol;
import org.jgroups.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What a member last heard of each other member, and since when it has heard it without a silence. */
@Tag("unit")
class HeardFromTests {

    private static final long SECOND = 1_000_000_000L;

    private long now = 10 * SECOND;
    private final HeardFrom heardFrom = new HeardFrom(() -> now, Duration.ofSeconds(1));
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
    void aMemberNeverHeardHasNoStretch() {
        assertThat(heardFrom.lastHeard(coordinator)).isEqualTo(Long.MIN_VALUE);
        assertThat(heardFrom.heardWithoutGapSince(coordinator)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void heartbeatsEveryHalfSecondKeepOneStretch() {
        long start = now;
        for (int i = 0; i < 20; i++) {
            hear();
            now += SECOND / 2;
        }
        assertThat(heardFrom.heardWithoutGapSince(coordinator)).isEqualTo(start);
        assertThat(heardFrom.lastHeard(coordinator)).isEqualTo(now - SECOND / 2);
    }

    @Test
    void aSilenceOfTheGapStartsANewStretch() {
        hear();
        now += SECOND * 6; // a link down for six seconds, then up again
        hear();
        assertThat(heardFrom.heardWithoutGapSince(coordinator)).isEqualTo(now);
    }
}
