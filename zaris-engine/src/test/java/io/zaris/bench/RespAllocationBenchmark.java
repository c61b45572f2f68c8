package io.zaris.bench;

import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.model.AckMode;
import io.zaris.replication.ReplicationSettings;
import io.zaris.server.ZarisNode;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Heap bytes a node allocates per RESP command (strings, and the hash, list, set and sorted-set commands
 * redis-benchmark's rows use): one connection to an in-process cluster of two nodes (replication
 * factor 2, so every SET is also shipped to the other node) sends N commands of 100-byte values, unpipelined or
 * {@code depth} at a time, and the allocation counters of every thread but its own
 * ({@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes}) are read before and after. The count is of
 * bytes, not time, so it does not depend on the machine's load; the membership's own timers add a few bytes per
 * millisecond, which the per-command figure carries divided by the commands of a pass (see the idle row).
 *
 * <p>Beside the bytes, each pass counts the TCP data segments the kernel sent on loopback during its last round
 * ({@code ss -ti}'s {@code data_segs_out}), per command: from the node to the client (with small replies, one per
 * flush of the connection), from the owner to the replica (one per flush of the replication link: how many commands
 * share a replication batch) and back (the replica's answers).
 *
 * <p>Beside the bytes, the CPU time of the same threads per command ({@code ThreadMXBean#getThreadCpuTime}).
 *
 * <p>Usage: {@code RespAllocationBenchmark [commands per pass] [rounds] [tests]} (defaults 200000, 3 and
 * {@code set,get,hset,hget,lpush,lpop,sadd,zadd,zrange}; {@code zaddrand} on request); prints, per ack mode and pass (each test unpipelined, then
 * each {@value #PIPELINE} at a time), the bytes per command of each round. The first round also warms the JIT, whose escape
 * analysis removes some allocations once a path is compiled, so the last rounds are the ones to compare.
 */
public final class RespAllocationBenchmark {

    private static final int VALUE_BYTES = 100;
    private static final int KEYS = 10_000;
    private static final int PIPELINE = 16;

    private RespAllocationBenchmark() {
    }

    /** The passes by name: redis-benchmark's commands of the same names ({@code bench/redis-benchmark}'s rows). */
    private static final List<String> ALL_TESTS = List.of("set", "get", "hset", "hget", "lpush", "lpop", "sadd", "zadd",
            "zrange");
    /** Passes run only when named: {@code zaddrand}, redis-benchmark's own ZADD on a sorted set that grows large. */
    private static final List<String> NAMED_ONLY = List.of("zaddrand");

    /** How many scores and members {@code zaddrand} draws from, as redis-benchmark's {@code -r 100000}. */
    private static final int RANDOM_RANGE = 100_000;

    public static void main(String[] args) throws Exception {
        int commands = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        List<String> tests = args.length > 2 ? List.of(args[2].toLowerCase(Locale.ROOT).split(",")) : ALL_TESTS;
        for (String test : tests) {
            if (!ALL_TESTS.contains(test) && !NAMED_ONLY.contains(test)) {
                throw new IllegalArgumentException("tests are " + String.join(",", ALL_TESTS) + " and "
                        + String.join(",", NAMED_ONLY) + ", not " + test);
            }
        }
        System.out.printf(Locale.ROOT, "RESP allocation per command: 2 in-process nodes, replication factor 2, %d-byte values,"
                + " %d commands per pass, %d rounds%n", VALUE_BYTES, commands, rounds);
        System.out.println("| ack | pass | bytes/command per round | CPU µs/command per round | segments/command, last round:"
                + " to client, owner to replica, replica to owner |");
        System.out.println("|---|---|---|---|---|");
        for (AckMode mode : new AckMode[] {AckMode.ASYNC, AckMode.SYNC}) {
            try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(2).replicationFactor(2)
                    .layout(PartitionLayout.of(64, 8)).replication(ReplicationSettings.defaults().withAckMode(mode))
                    .resp(true).build().start();
                 Connection connection = Connection.toOwner(cluster.respSeeds())) {
                Segments segments = Segments.of(cluster, connection.port());
                report(mode, "idle 1 s (bytes/ms)", rounds, segments, () -> {
                    Thread.sleep(1000);
                    return 1000;
                });
                for (int depth : new int[] {1, PIPELINE}) {
                    for (String test : tests) {
                        byte[][] prepared = commands(test, depth, commands * rounds);
                        int[] next = {0};
                        report(mode, test.toUpperCase(Locale.ROOT) + (depth == 1 ? "" : " -P " + depth), rounds, segments,
                                () -> connection.run(prepared, next, commands, depth));
                    }
                }
            }
        }
    }

    /**
     * One pass's commands, as redis-benchmark sends its tests of the same names: a key per string, and one hash,
     * list, set and sorted set. Strings and hash fields cycle over {@value #KEYS} numbers; SADD and ZADD add a new
     * member with every command of every round ({@code total}), as most of redis-benchmark's random members are, so
     * each one changes the set and is replicated; ZRANGE reads the ten lowest with their scores; LPOP takes what LPUSH
     * pushed. {@code zaddrand} is redis-benchmark's own ZADD ({@code ZADD myzset __rand_int__ element:__rand_int__}
     * with {@code -r 100000}, from a fixed seed): the set grows towards {@value #RANDOM_RANGE} members and then most
     * commands move a member to a new score, as the ZADD row of {@code bench/redis-benchmark} measures.
     */
    private static byte[][] commands(String test, int depth, int total) {
        if (test.equals("zaddrand")) {
            java.util.Random random = new java.util.Random(depth);
            byte[][] prepared = new byte[total][];
            for (int i = 0; i < total; i++) {
                prepared[i] = Connection.command(word("ZADD"), word("{b}myzrand"),
                        word(String.format(Locale.ROOT, "%012d", random.nextInt(RANDOM_RANGE))),
                        word(String.format(Locale.ROOT, "element:%012d", random.nextInt(RANDOM_RANGE))));
            }
            return prepared;
        }
        byte[] value = new byte[VALUE_BYTES];
        Arrays.fill(value, (byte) 'v');
        int count = test.equals("sadd") || test.equals("zadd") ? total : KEYS;
        byte[][] prepared = new byte[count][];
        for (int i = 0; i < count; i++) {
            String n = test.equals("sadd") || test.equals("zadd") ? String.format(Locale.ROOT, "%02d:%07d", depth, i)
                    : String.format(Locale.ROOT, "%06d", i);
            prepared[i] = switch (test) {
                case "set" -> Connection.command(word("SET"), word("{b}key:" + n), value);
                case "get" -> Connection.command(word("GET"), word("{b}key:" + n));
                case "hset" -> Connection.command(word("HSET"), word("{b}myhash"), word("element:" + n), value);
                case "hget" -> Connection.command(word("HGET"), word("{b}myhash"), word("element:" + n));
                case "lpush" -> Connection.command(word("LPUSH"), word("{b}mylist"), value);
                case "lpop" -> Connection.command(word("LPOP"), word("{b}mylist"));
                case "sadd" -> Connection.command(word("SADD"), word("{b}myset"), word("element:" + n));
                case "zadd" -> Connection.command(word("ZADD"), word("{b}myzset"), word(Integer.toString(depth * total + i)),
                        word("element:" + n));
                default -> Connection.command(word("ZRANGE"), word("{b}myzset"), word("0"), word("9"), word("WITHSCORES"));
            };
        }
        return prepared;
    }

    private static byte[] word(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    @FunctionalInterface
    private interface Pass {
        /** Runs the pass on this thread; returns what the allocated bytes are divided by. */
        int run() throws Exception;
    }

    private static void report(AckMode mode, String name, int rounds, Segments segments, Pass pass) throws Exception {
        StringBuilder row = new StringBuilder();
        StringBuilder cpu = new StringBuilder();
        long[] segmentsBefore = null;
        long[] segmentsAfter = null;
        int count = 1;
        for (int round = 0; round < rounds; round++) {
            segmentsBefore = segments.read();
            long before = allocatedByOtherThreads();
            long cpuBefore = cpuOfOtherThreads();
            count = pass.run();
            long cpuAfter = cpuOfOtherThreads();
            long after = allocatedByOtherThreads();
            segmentsAfter = segments.read();
            row.append(round == 0 ? "" : ", ").append(Math.round((after - before) / (double) count));
            cpu.append(round == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.1f",
                    (cpuAfter - cpuBefore) / 1000.0 / count));
        }
        StringBuilder perCommand = new StringBuilder();
        for (int i = 0; i < segmentsAfter.length; i++) {
            perCommand.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.3f",
                    (segmentsAfter[i] - segmentsBefore[i]) / (double) count));
        }
        System.out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s |%n", mode, name, row, cpu, perCommand);
    }

    /** TCP data segments sent so far on the benchmark's connections, read with {@code ss}. */
    private record Segments(int respPort, int ownerDataPort, int replicaDataPort) {

        static Segments of(EmbeddedCluster cluster, int respPort) {
            ZarisNode owner = cluster.nodes().stream().filter(node -> node.respAddress().port() == respPort)
                    .findFirst().orElseThrow();
            ZarisNode replica = cluster.nodes().stream().filter(node -> node != owner).findFirst().orElseThrow();
            return new Segments(respPort, owner.dataAddress().port(), replica.dataAddress().port());
        }

        /** To the client, owner to replica, replica to owner. */
        long[] read() throws IOException, InterruptedException {
            return new long[] {sent("sport = :" + respPort), sent("dport = :" + replicaDataPort),
                    sent("sport = :" + replicaDataPort)};
        }

        /**
         * Data segments sent by the sockets {@code ss} selects with {@code filter} (a connection from the replica to
         * the owner's data port is not one of them: only the owner's links towards the replica are counted).
         */
        private static long sent(String filter) throws IOException, InterruptedException {
            Process ss = new ProcessBuilder("ss", "-tinH", "state", "established", "( " + filter + " )")
                    .redirectErrorStream(true).start();
            String output = new String(ss.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            if (ss.waitFor() != 0) {
                throw new IOException("ss failed: " + output);
            }
            long total = 0;
            for (String word : output.split("\\s+")) {
                if (word.startsWith("data_segs_out:")) {
                    total += Long.parseLong(word.substring("data_segs_out:".length()));
                }
            }
            return total;
        }
    }

    /**
     * CPU time (user and system, nanoseconds) used so far by every live thread but this one: the nodes' event loops,
     * timers and the JIT compilers. Time on the CPU, not wall time, so a loaded machine moves it less than throughput;
     * it still moves (caches shared with other work, the JIT), so only figures of one run compare closely.
     */
    private static long cpuOfOtherThreads() {
        java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long self = Thread.currentThread().getId();
        long total = 0;
        for (long id : threads.getAllThreadIds()) {
            long nanos = id == self ? -1 : threads.getThreadCpuTime(id);
            if (nanos > 0) {
                total += nanos;
            }
        }
        return total;
    }

    /** Bytes allocated so far by every live thread but this one. */
    private static long allocatedByOtherThreads() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long self = Thread.currentThread().getId();
        long[] ids = threads.getAllThreadIds();
        long[] bytes = threads.getThreadAllocatedBytes(ids);
        long total = 0;
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] != self && bytes[i] > 0) {
                total += bytes[i];
            }
        }
        return total;
    }

    /** A blocking RESP client on one socket that sends prepared commands and checks each reply's type. */
    private static final class Connection implements AutoCloseable {

        private final Socket socket;
        private final int port;
        private final OutputStream out;
        private final InputStream in;

        private Connection(NodeAddress address) throws IOException {
            socket = new Socket(address.host(), address.port());
            port = address.port();
            socket.setTcpNoDelay(true);
            // Buffered: a pipeline leaves in one write, as redis-benchmark sends it.
            out = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
            in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
        }

        /** A connection to the node that owns the benchmark's hash tag (following one MOVED). */
        static Connection toOwner(List<NodeAddress> seeds) throws IOException {
            Connection first = new Connection(seeds.get(0));
            first.out.write(command("GET".getBytes(StandardCharsets.US_ASCII), "{b}probe".getBytes(StandardCharsets.US_ASCII)));
            first.out.flush();
            String reply = first.readReply();
            if (!reply.startsWith("-MOVED")) {
                return first;
            }
            first.close();
            String target = reply.substring(reply.lastIndexOf(' ') + 1);
            int colon = target.lastIndexOf(':');
            return new Connection(new NodeAddress(target.substring(0, colon), Integer.parseInt(target.substring(colon + 1))));
        }

        int port() {
            return port;
        }

        static byte[] command(byte[]... words) {
            int size = 0;
            for (byte[] word : words) {
                size += word.length + 16;
            }
            byte[] bytes = new byte[size + 16];
            int at = 0;
            at = put(bytes, at, ("*" + words.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            for (byte[] word : words) {
                at = put(bytes, at, ("$" + word.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
                at = put(bytes, at, word);
                at = put(bytes, at, new byte[] {'\r', '\n'});
            }
            return Arrays.copyOf(bytes, at);
        }

        private static int put(byte[] to, int at, byte[] from) {
            System.arraycopy(from, 0, to, at, from.length);
            return at + from.length;
        }

        /**
         * Sends {@code count} commands cycling over {@code commands} from {@code next[0]} on (which it advances, so a
         * pass's rounds go on where the last one stopped), {@code depth} in flight; returns count.
         */
        int run(byte[][] commands, int[] next, int count, int depth) throws IOException {
            int sent = 0;
            while (sent < count) {
                int batch = Math.min(depth, count - sent);
                for (int i = 0; i < batch; i++) {
                    out.write(commands[next[0]++ % commands.length]);
                }
                out.flush();
                for (int i = 0; i < batch; i++) {
                    skipReply();
                }
                sent += batch;
            }
            return count;
        }

        /** Reads one simple, integer, bulk or array reply; fails on an error reply. */
        private void skipReply() throws IOException {
            int type = in.read();
            if (type == '$') {
                int length = Integer.parseInt(line());
                if (length >= 0) {
                    in.skipNBytes(length + 2L);
                }
            } else if (type == '+' || type == ':') {
                line();
            } else if (type == '*') {
                int items = Integer.parseInt(line());
                for (int i = 0; i < items; i++) {
                    skipReply();
                }
            } else {
                throw new IOException("unexpected reply: " + (char) type + line());
            }
        }

        private String readReply() throws IOException {
            int type = in.read();
            String line = line();
            if (type == '$' && Integer.parseInt(line) >= 0) {
                in.skipNBytes(Integer.parseInt(line) + 2L);
            }
            return (char) type + line;
        }

        private String line() throws IOException {
            StringBuilder line = new StringBuilder();
            for (int b = in.read(); b != '\r'; b = in.read()) {
                if (b < 0) {
                    throw new IOException("connection closed");
                }
                line.append((char) b);
            }
            in.read();
            return line.toString();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
