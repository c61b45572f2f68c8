package io.zaris.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ThreadCpuTests {

    @Test
    void readsTheNameAndUserPlusSystemTicksOfAStatLine() {
        ThreadCpu.ThreadStat stat = ThreadCpu.parse(
                "28137 (C2 CompilerThre) S 28100 28100 15789 0 -1 1077936192 52 0 0 0 241 38 0 0 20 0 31 0 1423 4187304 0");

        assertThat(stat.name()).isEqualTo("C2 CompilerThre");
        assertThat(stat.ticks()).isEqualTo(241 + 38);
    }

    @Test
    void aNameWithSpacesAndParenthesesEndsAtTheLastClosingParenthesis() {
        ThreadCpu.ThreadStat stat = ThreadCpu.parse("7 (odd (name) x) R 1 1 1 0 -1 0 0 0 0 0 5 6 0 0 20 0 1 0 9 0 0");

        assertThat(stat.name()).isEqualTo("odd (name) x");
        assertThat(stat.ticks()).isEqualTo(11);
    }

    @Test
    void aLineThatIsNoStatLineIsRefused() {
        assertThatThrownBy(() -> ThreadCpu.parse("no parentheses here")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ThreadCpu.parse("1 (short) R 1 2")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void compilerAndCollectorThreadsAreToldFromTheRest() {
        assertThat(ThreadCpu.kindOf("C1 CompilerThre")).isEqualTo(ThreadCpu.Kind.COMPILER);
        assertThat(ThreadCpu.kindOf("C2 CompilerThre")).isEqualTo(ThreadCpu.Kind.COMPILER);
        assertThat(ThreadCpu.kindOf("GC Thread#1")).isEqualTo(ThreadCpu.Kind.COLLECTOR);
        assertThat(ThreadCpu.kindOf("G1 Conc#0")).isEqualTo(ThreadCpu.Kind.COLLECTOR);
        assertThat(ThreadCpu.kindOf("VM Thread")).isEqualTo(ThreadCpu.Kind.COLLECTOR);
        assertThat(ThreadCpu.kindOf("zaris-io-epoll-")).isEqualTo(ThreadCpu.Kind.OTHER);
        assertThat(ThreadCpu.kindOf("redis-server")).isEqualTo(ThreadCpu.Kind.OTHER);
    }

    @Test
    void sumsEachKindAndIgnoresTheRest() {
        ThreadCpu.Housekeeping sum = ThreadCpu.sum(List.of(new ThreadCpu.ThreadStat("C2 CompilerThre", 30),
                new ThreadCpu.ThreadStat("C1 CompilerThre", 5), new ThreadCpu.ThreadStat("GC Thread#0", 7),
                new ThreadCpu.ThreadStat("zaris-io-epoll-", 900)));

        assertThat(sum).isEqualTo(new ThreadCpu.Housekeeping(35, 7));
    }

    @Test
    void aThreadThatEndedBetweenTwoReadingsCountsAsNothingRatherThanLess() {
        ThreadCpu.Housekeeping before = new ThreadCpu.Housekeeping(100, 20);
        ThreadCpu.Housekeeping after = new ThreadCpu.Housekeeping(60, 35);

        assertThat(after.since(before)).isEqualTo(new ThreadCpu.Housekeeping(0, 15));
    }

    @Test
    void jvmsThatSpendMoreThanATwentiethOfTheirCpuCompilingHaveNotSettled() {
        assertThat(ThreadCpu.stillCompiling(300, 1000)).isTrue();
        assertThat(ThreadCpu.stillCompiling(51, 1000)).isTrue();
        assertThat(ThreadCpu.stillCompiling(50, 1000)).isFalse();
        assertThat(ThreadCpu.stillCompiling(0, 1000)).isFalse();
        assertThat(ThreadCpu.stillCompiling(0, 0)).isFalse(); // no CPU time known: nothing to wait for
    }

    @Test
    void readsTheCompilerThreadsOfThisJvm() {
        List<ThreadCpu.ThreadStat> threads = ThreadCpu.threadsOf(ProcessHandle.current());

        // HotSpot keeps at least one compiler thread alive; without /proc (not Linux) nothing can be read
        if (Files.isDirectory(Path.of("/proc/self/task"))) {
            assertThat(threads).anyMatch(thread -> ThreadCpu.kindOf(thread.name()) == ThreadCpu.Kind.COMPILER);
            assertThat(threads).allMatch(thread -> thread.ticks() >= 0);
        } else {
            assertThat(threads).isEmpty();
        }
    }
}
