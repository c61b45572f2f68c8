package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A drained node's RESP linger: when it closes, on fake clock readings, and which commands keep it open. */
@Tag("unit")
class RespLingerTests {

    private static final Duration QUIET = Duration.ofSeconds(2);
    private static final Duration MAX = Duration.ofSeconds(35);
    private static final long START = 1_000_000_000L;
    private static final long SECOND = 1_000_000_000L;

    @Test
    void closesAtOnceWithoutClients() {
        assertThat(RespLinger.next(START, START, START, 0, QUIET, MAX)).isEqualTo(RespLinger.Step.CLOSE_NO_CLIENTS);
    }

    @Test
    void lingersWhileClientsSentACommandWithinTheQuietTime() {
        assertThat(RespLinger.next(START + 10 * SECOND, START, START + 9 * SECOND, 3, QUIET, MAX))
                .isEqualTo(RespLinger.Step.LINGER);
        assertThat(RespLinger.next(START + 11 * SECOND, START, START + 9 * SECOND, 3, QUIET, MAX))
                .isEqualTo(RespLinger.Step.CLOSE_QUIET);
    }

    @Test
    void closesAfterTheLongestLingerEvenWhileClientsStillSend() {
        assertThat(RespLinger.next(START + 35 * SECOND - 1, START, START + 35 * SECOND - 2, 1, QUIET, MAX))
                .isEqualTo(RespLinger.Step.LINGER);
        assertThat(RespLinger.next(START + 35 * SECOND, START, START + 35 * SECOND - 1, 1, QUIET, MAX))
                .isEqualTo(RespLinger.Step.CLOSE_MAX);
    }

    @Test
    void aZeroLongestLingerClosesAtOnce() {
        assertThat(RespLinger.next(START, START, START, 5, Duration.ZERO, Duration.ZERO)).isEqualTo(RespLinger.Step.CLOSE_MAX);
    }

    @Test
    void onlyCommandsOtherThanConnectionAndTopologyOnesCountAndOnlyWhileLingering() {
        RespLinger linger = new RespLinger(QUIET, MAX);
        linger.commandArrived(command("GET", "k"));
        assertThat(linger.lastCommandNanos()).as("not lingering yet").isZero();

        linger.begin(START);
        linger.commandArrived(command("cluster", "slots"));
        linger.commandArrived(command("PING"));
        assertThat(linger.lastCommandNanos()).isEqualTo(START);

        linger.commandArrived(command("set", "k", "v"));
        assertThat(linger.lastCommandNanos()).isNotEqualTo(START);
    }

    @Test
    void aQuietTimeLongerThanTheLongestLingerIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> new RespLinger(Duration.ofSeconds(3), Duration.ofSeconds(2)))
                .withMessageContaining("0 <= quiet <= max");
    }

    private static List<byte[]> command(String... words) {
        return java.util.Arrays.stream(words).map(word -> word.getBytes(StandardCharsets.US_ASCII)).toList();
    }
}
