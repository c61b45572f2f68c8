package io.zaris.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ResidentMemoryTests {

    @Test
    void readsTheVmRssLineOfAStatusFile() throws IOException {
        String status = """
                Name:\tjava
                VmPeak:\t 9000000 kB
                VmHWM:\t  250000 kB
                VmRSS:\t  204800 kB
                RssAnon:\t  180000 kB
                """;
        assertThat(ResidentMemory.kilobytes(status, 42)).isEqualTo(204_800);
    }

    @Test
    void aStatusWithoutVmRssIsATypedError() {
        // A kernel thread's status has no VmRSS line.
        assertThatThrownBy(() -> ResidentMemory.kilobytes("Name:\tkthreadd\nState:\tS (sleeping)\n", 2))
                .isInstanceOf(IOException.class).hasMessageContaining("VmRSS").hasMessageContaining("process 2");
    }

    @Test
    void theCurrentProcessHoldsAtLeastTheHeapItHasJustTouched() throws IOException {
        assumeThat(Files.isReadable(Path.of("/proc/self/status"))).as("Linux /proc").isTrue();
        long pid = ProcessHandle.current().pid();
        // Touch 64 MiB of a live array so that it must be resident, then read the process's own figure.
        byte[] touched = new byte[64 << 20];
        for (int i = 0; i < touched.length; i += 4096) {
            touched[i] = 1;
        }
        long resident = ResidentMemory.bytes(pid);
        assertThat(resident).isGreaterThanOrEqualTo(touched.length);
        // No more than the machine's memory: a figure in bytes, not in kB mistaken for bytes times 1024 again.
        long machine = Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal:"))
                .map(l -> Long.parseLong(l.replaceAll("\\D", "")) * 1024).findFirst().orElseThrow();
        assertThat(resident).isLessThanOrEqualTo(machine);
        assertThat(touched[4096]).isEqualTo((byte) 1);
    }

    @Test
    void aProcessThatIsGoneIsATypedError() {
        assertThatThrownBy(() -> ResidentMemory.bytes(Long.MAX_VALUE)).isInstanceOf(IOException.class)
                .hasMessageContaining("resident memory of process " + Long.MAX_VALUE);
    }
}
