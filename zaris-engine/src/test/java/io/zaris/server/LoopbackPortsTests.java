package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Ports for tests come from below the kernel's ephemeral range, where no outgoing connection can take them. */
@Tag("unit")
class LoopbackPortsTests {

    private static final Path RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    @Test
    void readsTheKernelsEphemeralRange() throws IOException {
        assumeTrue(Files.isReadable(RANGE), "no Linux ephemeral port range to read");
        String published;
        try (BufferedReader reader = Files.newBufferedReader(RANGE)) {
            published = reader.readLine().trim().split("\\s+")[0];
        }
        assertThat(LoopbackPorts.ephemeralRangeStart()).isEqualTo(Integer.parseInt(published));
    }

    @Test
    void handsOutDistinctPortsBelowTheEphemeralRange() throws IOException {
        int ephemeralStart = LoopbackPorts.ephemeralRangeStart();
        assumeTrue(ephemeralStart - 10_000 >= 1_000, "this machine leaves no room below its ephemeral range");
        int first = LoopbackPorts.free();
        int second = LoopbackPorts.free();
        assertThat(first).isBetween(10_000, ephemeralStart - 1);
        assertThat(second).isBetween(10_000, ephemeralStart - 1).isNotEqualTo(first);
    }
}
