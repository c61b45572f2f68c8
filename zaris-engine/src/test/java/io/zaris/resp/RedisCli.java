package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.NodeAddress;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs Debian's {@code redis-cli} (package redis-tools) for the tests that check Zaris against it. */
final class RedisCli {

    /** What one run printed (stdout and stderr together) and its exit code. */
    record Result(int exitCode, String output) {
    }

    static final String MISSING = "redis-cli is not installed (Debian package redis-tools); skipping";

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
}
