package io.zaris.bench.peers;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code bench/failover}: for each system in turn, starts a 3-node cluster on loopback, runs a {@link FailoverRun}
 * on it (a steady write load, SIGKILL of one node, more writes, a read-back) and stops it, then prints the
 * {@link FailoverReport} and writes it to a file.
 *
 * <p>Only one cluster is up at a time. Its processes are stopped when its run ends, fails, or the JVM is asked to
 * exit (a shutdown hook closes the cluster in use); a JVM killed outright leaves them behind.
 */
public final class FailoverCommand {

    private FailoverCommand() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("hazelcast.logging.type", "slf4j");
        System.setProperty("java.net.preferIPv4Stack", "true");
        Path root = Path.of(System.getProperty("zaris.repository", ".")).toAbsolutePath().normalize();
        FailoverSettings settings;
        try {
            settings = FailoverSettings.parse(args, root);
        } catch (IllegalArgumentException e) {
            System.err.println("bench/failover: " + e.getMessage());
            System.err.println(FailoverSettings.USAGE);
            System.exit(2);
            return;
        }
        Instant started = Instant.now();
        System.out.println(settings.describe());
        AtomicReference<FailoverTarget> current = new AtomicReference<>();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            FailoverTarget target = current.get();
            if (target != null) {
                target.close();
            }
        }, "failover-cleanup"));
        List<FailoverResult> results = new ArrayList<>();
        Map<String, String> failed = new LinkedHashMap<>();
        for (String system : settings.systems()) {
            System.out.println("starting " + system);
            try (FailoverTarget target = start(system, settings)) {
                current.set(target);
                results.add(FailoverRun.measure(target, settings));
            } catch (IOException | RuntimeException e) {
                System.out.println(system + " failed: " + e);
                e.printStackTrace();
                failed.put(system, e.toString());
            } finally {
                current.set(null);
            }
        }
        LocalDate today = LocalDate.now();
        String report = FailoverReport.render(results, failed, settings, Duration.between(started, Instant.now()), today);
        Path written = FailoverReport.write(report, settings.reportDirectory(), today);
        System.out.println();
        System.out.println(report);
        System.out.println("written to " + root.relativize(written));
        if (!failed.isEmpty()) {
            System.exit(1);
        }
    }

    private static FailoverTarget start(String system, FailoverSettings settings) throws IOException, InterruptedException {
        Path work = settings.workDirectory().resolve(system);
        return switch (system) {
            case "zaris-sync" -> ZarisFailoverTarget.start("sync", settings.nodeHeap(), settings.serverJar(), work);
            case "zaris-async" -> ZarisFailoverTarget.start("async", settings.nodeHeap(), settings.serverJar(), work);
            case "redis-replicas" -> RedisFailoverTarget.start(work);
            case "hazelcast" -> HazelcastFailoverTarget.start(settings.nodeHeap(), work);
            default -> throw new IllegalArgumentException(system);
        };
    }
}
