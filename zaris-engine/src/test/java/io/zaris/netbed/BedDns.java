package io.zaris.netbed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;

/**
 * A real DNS server for a {@link NetworkBed}: dnsmasq on the host side, listening on the bridge's address (every
 * host reaches it), answering A records from a hosts file only (no upstream, no system hosts file). {@link #publish}
 * rewrites the file and has dnsmasq re-read it (SIGHUP), as a DNS service adds a record while it runs. Closing stops
 * dnsmasq.
 *
 * <p>Not thread-safe: the test thread drives it.
 */
final class BedDns implements AutoCloseable {

    private static final String DNSMASQ = "/usr/sbin/dnsmasq";
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    private final Process process;
    private final Path hostsFile;
    private final Path log;
    private final String server;
    private int reloads;

    private BedDns(Process process, Path hostsFile, Path log, String server) {
        this.process = process;
        this.hostsFile = hostsFile;
        this.log = log;
        this.server = server;
    }

    /** Aborts the calling test, loudly, when dnsmasq is not installed ({@code scripts/install-test-tools} installs it). */
    static void assumeAvailable() {
        boolean installed = new File(DNSMASQ).canExecute();
        if (!installed) {
            String banner = "!".repeat(100);
            System.err.println(banner);
            System.err.println("NETWORK BED DNS TESTS SKIPPED: " + DNSMASQ + " is missing (scripts/install-test-tools installs it)");
            System.err.println(banner);
        }
        Assumptions.assumeTrue(installed, () -> "dnsmasq is not installed: scripts/install-test-tools installs it");
    }

    /** Starts dnsmasq on the bed's host-side address, at a free port, answering nothing until {@link #publish}. */
    static BedDns start(NetworkBed bed, Path directory) throws IOException {
        Files.createDirectories(directory);
        Path hostsFile = directory.resolve("dns-hosts").toAbsolutePath();
        Files.writeString(hostsFile, "");
        Path log = directory.resolve("dnsmasq.log");
        String address = bed.address(NetworkBed.HOST_SIDE);
        int port = freeUdpPort(address);
        // --user=root: dnsmasq re-reads the hosts file after dropping privileges, and the build directory may not
        // be readable by 'nobody'.
        List<String> command = List.of(DNSMASQ, "--keep-in-foreground", "--no-resolv", "--no-hosts", "--no-poll",
                "--pid-file=", "--conf-file=/dev/null", "--user=root", "--bind-interfaces", "--listen-address=" + address,
                "--port=" + port, "--addn-hosts=" + hostsFile, "--log-queries", "--log-facility=-");
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        BedDns dns = new BedDns(process, hostsFile, log, address + ":" + port);
        try {
            dns.awaitLog("read " + hostsFile + " - ", 1);
        } catch (RuntimeException | Error e) {
            dns.close();
            throw e;
        }
        return dns;
    }

    /** {@code host:port} of this server, as {@code --dns-server} takes it. */
    String server() {
        return server;
    }

    /**
     * From now on {@code name} resolves to exactly {@code addresses} (one A record each); returns once dnsmasq has
     * re-read its hosts file.
     */
    void publish(String name, Collection<String> addresses) throws IOException {
        String lines = addresses.stream().map(address -> address + " " + name + "\n").collect(Collectors.joining());
        Files.writeString(hostsFile, lines);
        reloads++;
        Shell.run(List.of("kill", "-HUP", Long.toString(process.pid()))).orThrow();
        String read = "read " + hostsFile + " - ";
        awaitLog(read, reloads + 1);
        String last = readLog().substring(readLog().lastIndexOf(read) + read.length());
        assertThat(last).as("dnsmasq read the new records").startsWith(addresses.size() + " names");
    }

    /** The addresses that asked this server for {@code name}'s A records, per its query log. */
    java.util.Set<String> askedFor(String name) {
        String asked = "query[A] " + name + " from ";
        return readLog().lines().filter(line -> line.contains(asked))
                .map(line -> line.substring(line.indexOf(asked) + asked.length()).strip())
                .collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    /** Waits until {@code text} occurs at least {@code times} times in dnsmasq's log; fails if dnsmasq exits. */
    private void awaitLog(String text, int times) {
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(50)).until(() -> !process.isAlive()
                || occurrences(Files.readString(log), text) >= times);
        assertThat(process.isAlive()).as("dnsmasq runs; its log: %s", readLog()).isTrue();
    }

    private static int occurrences(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            count++;
        }
        return count;
    }

    private String readLog() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    private static int freeUdpPort(String address) throws IOException {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getByName(address))) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
