package io.zaris.chaos;

import io.zaris.model.AckMode;
import java.nio.file.Path;
import java.time.Duration;

/**
 * One chaos run: how long, how many nodes, replication factor, acknowledgement mode, the seed of the
 * nemesis and workload choices (a run is replayable up to timing), where the report goes, and where the nodes run.
 */
public record ChaosOptions(Duration duration, int nodes, int replicationFactor, AckMode ackMode, long seed,
                           Duration escalationTimeout, Path outputDirectory, Network network) {

    /** Where the nodes run, and so which faults the nemesis can inject. */
    public enum Network {
        /** Processes on loopback: process faults only. */
        LOOPBACK,
        /** One network namespace host per node on a bridge (needs root): process faults and network faults. */
        BED
    }

    /** A run on loopback. */
    public ChaosOptions(Duration duration, int nodes, int replicationFactor, AckMode ackMode, long seed,
                        Duration escalationTimeout, Path outputDirectory) {
        this(duration, nodes, replicationFactor, ackMode, seed, escalationTimeout, outputDirectory, Network.LOOPBACK);
    }

    /** Most simultaneous failures: fewer than the replicas, and never the majority. */
    public int maxSimultaneousFaults() {
        return Math.max(0, Math.min(replicationFactor - 1, (nodes - 1) / 2));
    }

    /** Parses {@code --minutes 10 --seconds 0 --nodes 5 --rf 3 --ack sync --seed 1 --out dir --network loopback|bed}. */
    public static ChaosOptions parse(String[] args) {
        long seconds = 600;
        int nodes = 5;
        int rf = 3;
        AckMode ack = AckMode.SYNC;
        long seed = System.currentTimeMillis();
        Path out = Path.of("target", "chaos");
        Network network = Network.LOOPBACK;
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 == args.length) { // a trailing option without its value was once ignored, and the run went on
                throw new IllegalArgumentException("option " + args[i] + " needs a value (use --minutes|--seconds|"
                        + "--nodes|--rf|--ack|--seed|--out|--network, each followed by its value)");
            }
            String value = args[i + 1];
            switch (args[i]) {
                case "--minutes" -> seconds = Long.parseLong(value) * 60;
                case "--seconds" -> seconds = Long.parseLong(value);
                case "--nodes" -> nodes = Integer.parseInt(value);
                case "--rf" -> rf = Integer.parseInt(value);
                case "--ack" -> ack = AckMode.valueOf(value.toUpperCase(java.util.Locale.ROOT));
                case "--seed" -> seed = Long.parseLong(value);
                case "--out" -> out = Path.of(value);
                case "--network" -> network = switch (value) {
                    case "loopback" -> Network.LOOPBACK;
                    case "bed" -> Network.BED;
                    default -> throw new IllegalArgumentException("--network must be loopback or bed but was " + value);
                };
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + " (use --minutes|--seconds|--nodes|--rf|--ack|--seed|--out|--network)");
            }
        }
        return new ChaosOptions(Duration.ofSeconds(seconds), nodes, rf, ack, seed, Duration.ofSeconds(6), out, network);
    }
}
