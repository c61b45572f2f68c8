package io.zaris.bench.peers;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Processes one cluster started on loopback, each logging to its own file, all stopped on close
 * (forcibly: the benchmark throws the data away). Ports are picked free at run time.
 */
final class LocalProcesses implements AutoCloseable {

    private final Path logDirectory;
    private final List<Process> processes = new ArrayList<>();

    LocalProcesses(Path logDirectory) throws IOException {
        this.logDirectory = Files.createDirectories(logDirectory);
    }

    Process start(String name, List<String> command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(logDirectory.resolve(name + ".log").toFile()).start();
        processes.add(process);
        return process;
    }

    /**
     * Kills one of the started processes at once, as {@code kill -9} does (SIGKILL: no shutdown hook runs, the
     * process says goodbye to no peer), and waits until it is gone. Its descendants are left alone.
     */
    static void kill(Process process) throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("process " + process.pid() + " still runs 10 s after SIGKILL");
        }
    }

    Path logDirectory() {
        return logDirectory;
    }

    /**
     * CPU time (user + system) the started processes and their descendants used so far, as the OS accounts it
     * (on Linux from {@code /proc}, in clock ticks). A process whose figure the OS does not give counts as zero.
     */
    Duration cpuTime() {
        return handles().map(LocalProcesses::cpuTimeOf).reduce(Duration.ZERO, Duration::plus);
    }

    /** What the started processes' live threads spent compiling and collecting so far (see {@link ThreadCpu}). */
    ThreadCpu.Housekeeping housekeeping() {
        return handles().map(ThreadCpu::of).reduce(ThreadCpu.Housekeeping.NONE, ThreadCpu.Housekeeping::plus);
    }

    /** The started processes and their descendants. */
    private Stream<ProcessHandle> handles() {
        return processes.stream().flatMap(process -> Stream.concat(Stream.of(process.toHandle()), process.descendants()));
    }

    static Duration cpuTimeOf(ProcessHandle handle) {
        return handle.info().totalCpuDuration().orElse(Duration.ZERO);
    }

    /** Runs a short command to completion and returns its output; fails on a non-zero exit. */
    static String runToCompletion(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + output);
        }
        return output;
    }

    static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static String jcmdBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** A free port whose companion {@code port + offset} is free too (Redis Cluster's bus port). */
    static int freePortWithCompanion(int offset) throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = freePort();
            if (port + offset > 65535) {
                continue;
            }
            try (ServerSocket companion = new ServerSocket(port + offset)) {
                return port;
            } catch (IOException taken) {
                // try another
            }
        }
        throw new IOException("no free port with a free companion at +" + offset);
    }

    /**
     * Asks every process to stop (SIGTERM, so a flight recording started with the node is written out),
     * gives them 10 s together, then kills what is left.
     */
    @Override
    public void close() {
        for (Process process : processes) {
            process.destroy();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (Process process : processes) {
            try {
                process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }
}
