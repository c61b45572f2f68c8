package io.zaris.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class TimelineTests {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void theLongestStallIsTheLongestWriteOverlappingAFaultCountedFromTheFaultsStart() {
        List<Op> ops = List.of(
                new Op.Write(0, "w0-1", "w0:1", 1, 2 * SECOND, 9 * SECOND, Reply.OK, false),   // done before any fault
                new Op.Write(1, "w1-4", "w1:4", 2, 9 * SECOND, 14 * SECOND, Reply.OK, false),  // 4 s of the kill
                new Op.Write(2, "w2-7", "w2:7", 3, 21 * SECOND, 27 * SECOND, Reply.OK, false)); // 6 s of the pause
        List<Nemesis.Fault> faults = List.of(new Nemesis.Fault(Nemesis.Kind.KILL, "n2", 10 * SECOND, 12 * SECOND),
                new Nemesis.Fault(Nemesis.Kind.PAUSE, "n4", 20 * SECOND, 35 * SECOND));

        Timeline timeline = Timeline.of(ops, faults, 0, 40 * SECOND);

        assertThat(timeline.longestStallByFault()).containsEntry("KILL", 4.0).containsEntry("PAUSE", 6.0);
        assertThat(timeline.maxStallSeconds()).isEqualTo(6.0);
        assertThat(timeline.longestStall())
                .isEqualTo("w2-7 by client 2, invoked at 21.0 s, OK at 27.0 s; PAUSE of n4 from 20.0 s to 35.0 s");
    }
}
