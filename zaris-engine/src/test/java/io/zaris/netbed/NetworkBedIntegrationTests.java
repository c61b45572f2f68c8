package io.zaris.netbed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The bed's faults act on real traffic: a TCP listener runs in a namespace, and the test JVM on the host side
 * connects to it through each fault.
 */
@Tag("network-bed")
class NetworkBedIntegrationTests {

    private static final int PORT = 9000;
    private static final int CONNECT_TIMEOUT_MILLIS = 1000;
    /** A listener that accepts and holds connections until it is killed; run with the JDK's single-file launcher. */
    private static final String LISTENER = """
            import java.net.*;
            import java.util.*;
            public class Listener {
                public static void main(String[] args) throws Exception {
                    List<Socket> held = new ArrayList<>();
                    try (ServerSocket server = new ServerSocket()) {
                        server.bind(new InetSocketAddress(args[0], Integer.parseInt(args[1])));
                        while (true) {
                            held.add(server.accept());
                        }
                    }
                }
            }
            """;

    @BeforeAll
    static void requireNamespaces() {
        NetworkBed.assumeAvailable();
    }

    @Test
    void everyFaultStopsTrafficAndHealingRestoresIt() throws Exception {
        Path directory = PartitionChecks.logDirectory("bed");
        Files.createDirectories(directory);
        Path source = directory.resolve("Listener.java");
        Files.writeString(source, LISTENER);
        try (NetworkBed bed = NetworkBed.create(2)) {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            bed.start(1, List.of(java, source.toAbsolutePath().toString(), bed.address(1), Integer.toString(PORT)),
                    directory.resolve("listener.log"));
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> reachable(bed, 1));

            bed.cutLink(1);
            assertThat(reachable(bed, 1)).as("through a link that is down").isFalse();
            bed.heal();
            await().atMost(Duration.ofSeconds(10)).until(() -> reachable(bed, 1));

            bed.isolate(1);
            assertThat(reachable(bed, 1)).as("to an isolated host").isFalse();
            bed.heal();
            assertThat(reachable(bed, 1)).as("after healing").isTrue();

            bed.dropOneWay(NetworkBed.HOST_SIDE, 1);
            assertThat(reachable(bed, 1)).as("with packets towards the host dropped").isFalse();
            bed.heal();
            bed.dropOneWay(1, 2);
            assertThat(reachable(bed, 1)).as("when only packets from it to another host are dropped").isTrue();
            bed.heal();

            bed.lose(1, 100.0 - 0.01);
            assertThat(reachable(bed, 1)).as("with nearly every packet lost").isFalse();
            bed.heal();
            assertThat(reachable(bed, 1)).as("after healing the loss").isTrue();

            if (bed.supportsDelay()) {
                bed.delay(1, Duration.ofMillis(150), Duration.ZERO);
                assertThat(connectMillis(bed, 1)).as("connect time through 150 ms of delay each way")
                        .isGreaterThanOrEqualTo(300);
                bed.heal();
                assertThat(connectMillis(bed, 1)).as("connect time after healing").isLessThan(300);
            } else {
                System.err.println("NOTE: this kernel has no tc netem (CONFIG_NET_SCH_NETEM); the bed cannot delay packets"
                        + " here, so delay was not checked");
            }

            bed.close();
            String namespaces = Shell.run(List.of("ip", "netns", "list")).output();
            assertThat(namespaces).as("namespaces left after close").doesNotContain(bed.namespace(1), bed.namespace(2));
            assertThat(Shell.run(List.of("ip", "-o", "link", "show")).output())
                    .as("links left after close").doesNotContain(bed.namespace(1).replaceAll("h1$", ""));
        }
    }

    private static boolean reachable(NetworkBed bed, int host) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(bed.address(host), PORT), CONNECT_TIMEOUT_MILLIS);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static long connectMillis(NetworkBed bed, int host) throws IOException {
        long start = System.nanoTime();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(bed.address(host), PORT), 5_000);
        }
        return (System.nanoTime() - start) / 1_000_000;
    }
}
