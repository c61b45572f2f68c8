package io.zaris.bench;

import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.model.AckMode;
import io.zaris.replication.ReplicationSettings;
import java.io.BufferedInputStream;
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
 * Heap bytes a node allocates per RESP command: one connection to an in-process cluster of two nodes (replication
 * factor 2, so every SET is also shipped to the other node) sends N commands of 100-byte values, unpipelined or
 * {@code depth} at a time, and the allocation counters of every thread but its own
 * ({@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes}) are read before and after. The count is of
 * bytes, not time, so it does not depend on the machine's load; the membership's own timers add a few bytes per
 * millisecond, which the per-command figure carries divided by the commands of a pass (see the idle row).
 *
 * <p>Usage: {@code RespAllocationBenchmark [commands per pass] [rounds]} (defaults 200000 and 3); prints, per
 * ack mode and pass, the bytes per command of each round. The first round also warms the JIT, whose escape
 * analysis removes some allocations once a path is compiled, so the last rounds are the ones to compare.
 */
public final class RespAllocationBenchmark {

    private static final int VALUE_BYTES = 100;
    private static final int KEYS = 10_000;
    private static final int PIPELINE = 16;

    private RespAllocationBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int commands = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        System.out.printf(Locale.ROOT, "RESP allocation per command: 2 in-process nodes, replication factor 2, %d-byte values,"
                + " %d commands per pass, %d rounds%n", VALUE_BYTES, commands, rounds);
        System.out.println("| ack | pass | bytes/command per round |");
        System.out.println("|---|---|---|");
        for (AckMode mode : new AckMode[] {AckMode.ASYNC, AckMode.SYNC}) {
            try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(2).replicationFactor(2)
                    .layout(PartitionLayout.of(64, 8)).replication(ReplicationSettings.defaults().withAckMode(mode))
                    .resp(true).build().start();
                 Connection connection = Connection.toOwner(cluster.respSeeds())) {
                byte[][] sets = new byte[KEYS][];
                byte[][] gets = new byte[KEYS][];
                byte[] value = new byte[VALUE_BYTES];
                Arrays.fill(value, (byte) 'v');
                for (int i = 0; i < KEYS; i++) {
                    String key = String.format(Locale.ROOT, "{b}key:%06d", i);
                    sets[i] = Connection.command("SET".getBytes(StandardCharsets.US_ASCII), key.getBytes(StandardCharsets.US_ASCII), value);
                    gets[i] = Connection.command("GET".getBytes(StandardCharsets.US_ASCII), key.getBytes(StandardCharsets.US_ASCII));
                }
                report(mode, "idle 1 s (bytes/ms)", rounds, () -> {
                    Thread.sleep(1000);
                    return 1000;
                });
                report(mode, "SET", rounds, () -> connection.run(sets, commands, 1));
                report(mode, "GET", rounds, () -> connection.run(gets, commands, 1));
                report(mode, "SET -P " + PIPELINE, rounds, () -> connection.run(sets, commands, PIPELINE));
                report(mode, "GET -P " + PIPELINE, rounds, () -> connection.run(gets, commands, PIPELINE));
            }
        }
    }

    @FunctionalInterface
    private interface Pass {
        /** Runs the pass on this thread; returns what the allocated bytes are divided by. */
        int run() throws Exception;
    }

    private static void report(AckMode mode, String name, int rounds, Pass pass) throws Exception {
        StringBuilder row = new StringBuilder();
        for (int round = 0; round < rounds; round++) {
            long before = allocatedByOtherThreads();
            int count = pass.run();
            long after = allocatedByOtherThreads();
            row.append(round == 0 ? "" : ", ").append(Math.round((after - before) / (double) count));
        }
        System.out.printf(Locale.ROOT, "| %s | %s | %s |%n", mode, name, row);
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
        private final OutputStream out;
        private final InputStream in;

        private Connection(NodeAddress address) throws IOException {
            socket = new Socket(address.host(), address.port());
            socket.setTcpNoDelay(true);
            out = socket.getOutputStream();
            in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
        }

        /** A connection to the node that owns the benchmark's hash tag (following one MOVED). */
        static Connection toOwner(List<NodeAddress> seeds) throws IOException {
            Connection first = new Connection(seeds.get(0));
            first.out.write(command("GET".getBytes(StandardCharsets.US_ASCII), "{b}probe".getBytes(StandardCharsets.US_ASCII)));
            String reply = first.readReply();
            if (!reply.startsWith("-MOVED")) {
                return first;
            }
            first.close();
            String target = reply.substring(reply.lastIndexOf(' ') + 1);
            int colon = target.lastIndexOf(':');
            return new Connection(new NodeAddress(target.substring(0, colon), Integer.parseInt(target.substring(colon + 1))));
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

        /** Sends {@code count} commands cycling over {@code commands}, {@code depth} in flight; returns count. */
        int run(byte[][] commands, int count, int depth) throws IOException {
            int sent = 0;
            while (sent < count) {
                int batch = Math.min(depth, count - sent);
                for (int i = 0; i < batch; i++) {
                    out.write(commands[(sent + i) % commands.length]);
                }
                out.flush();
                for (int i = 0; i < batch; i++) {
                    skipReply();
                }
                sent += batch;
            }
            return count;
        }

        /** Reads one simple, error, integer or bulk reply; fails on an error reply. */
        private void skipReply() throws IOException {
            int type = in.read();
            if (type == '$') {
                int length = Integer.parseInt(line());
                if (length >= 0) {
                    in.skipNBytes(length + 2L);
                }
            } else if (type == '+' || type == ':') {
                line();
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
