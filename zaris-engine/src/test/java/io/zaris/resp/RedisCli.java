package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.NodeAddress;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/**
 * Talks to a RESP port the two ways a Redis user does from a shell, for the tests that check Zaris's replies: Debian's
 * {@code redis-cli} (package redis-tools), which sends RESP arrays and prints replies its own way, and inline commands
 * written to a plain socket (as {@code nc} would), whose raw replies the tests compare byte for byte.
 */
final class RedisCli {

    /** What one run printed (stdout and stderr together) and its exit code. */
    record Result(int exitCode, String output) {
    }

    static final String MISSING = "redis-cli is not installed (Debian package redis-tools); skipping";

    /** Redis's reply to a command on a key of another type, as one line of a test's expected replies. */
    static final String WRONGTYPE = "-WRONGTYPE Operation against a key holding the wrong kind of value\n";

    /** How long an inline exchange waits for the server to answer and close. */
    private static final int EXCHANGE_TIMEOUT_MILLIS = 10_000;

    private RedisCli() {
    }

    static boolean installed() {
        try {
            Process process = new ProcessBuilder("redis-cli", "--version").redirectErrorStream(true).start();
            return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** {@code redis-cli -h host -p port args…}: its trimmed output. */
    static String at(NodeAddress address, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("-h", address.host(), "-p", Integer.toString(address.port())));
        command.addAll(List.of(args));
        return run(command.toArray(new String[0])).output().trim();
    }

    /** {@code redis-cli --cluster check host:port}. */
    static Result clusterCheck(NodeAddress address) throws IOException, InterruptedException {
        return run("--cluster", "check", address.host() + ":" + address.port());
    }

    static Result run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("redis-cli"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("redis-cli " + String.join(" ", args) + " finished").isTrue();
        return new Result(process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    /**
     * Sends each line of {@code commands} ({@code \n}-terminated) as an inline command, then QUIT, and asserts the
     * whole answer: {@code expected} (its lines {@code \n}-terminated) followed by QUIT's {@code +OK}.
     */
    static void assertReplies(NodeAddress address, String commands, String expected) throws IOException {
        assertThat(exchangeLines(address, commands)).isEqualTo(expected.replace("\n", "\r\n") + "+OK\r\n");
    }

    /** Sends each line of {@code commands} as an inline command (lines joined with CRLF), then QUIT: every reply. */
    static String exchangeLines(NodeAddress address, String commands) throws IOException {
        return new String(exchange(address, commands.replace("\n", "\r\n") + "QUIT\r\n"), StandardCharsets.ISO_8859_1);
    }

    /**
     * A collection expires whole: {@code add} (inline, putting two new elements into {@code key}) answers {@code :2},
     * PEXPIRE gives the key 1 ms, and then, within 10 s, {@code read} (inline, reading all of {@code key}) answers an
     * empty array while TTL and TYPE answer that the key is gone.
     */
    static void assertExpiresWhole(NodeAddress address, String key, String add, String read) throws IOException {
        assertThat(exchangeLines(address, add + "\nPEXPIRE " + key + " 1\n")).isEqualTo(":2\r\n:1\r\n+OK\r\n");
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(exchangeLines(address, read + "\nTTL " + key + "\nTYPE " + key + "\n"))
                        .isEqualTo("*0\r\n:-2\r\n+none\r\n+OK\r\n"));
    }

    /** Writes {@code input} as it is, closes the sending side and reads until the server closes: its raw replies. */
    static byte[] exchange(NodeAddress address, String input) throws IOException {
        try (Socket socket = new Socket(address.host(), address.port())) {
            socket.setSoTimeout(EXCHANGE_TIMEOUT_MILLIS);
            socket.getOutputStream().write(input.getBytes(StandardCharsets.ISO_8859_1));
            socket.shutdownOutput();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            socket.getInputStream().transferTo(out);
            return out.toByteArray();
        }
    }
}
