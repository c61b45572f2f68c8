package io.zaris.server;

import io.zaris.model.ClusterView;
import io.zaris.model.KvStatus;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.placement.PartitionMap;
import io.zaris.protocol.ClusterViewCodec;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import io.zaris.security.Credentials;
import io.zaris.security.TlsOptions;
import io.zaris.time.TimeSource;
import io.zaris.transport.NodeConnection;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongFunction;

/**
 * The server jar's {@code admin} subcommand: an operator's view of a running cluster ({@code map}) and the
 * two elasticity commands ({@code drain}, {@code rebalance}), sent to one node's data port.
 *
 * <p>Three layers, so everything but the socket is testable: {@link #parse} turns the command line into
 * {@link Options} (pure; environment and files injected); the {@code format…}/{@code …Progress} functions
 * turn a {@link ClusterView} into text (pure); {@link #execute} runs a command against a {@link Node} with a
 * {@link Clock}, which the real entry point {@link #run(String[], PrintStream, PrintStream)} backs with a
 * data-port connection and the system clock.
 *
 * <p>A partition counts as <em>moving</em> (a rebalance or heal in progress) while its runtime health is not
 * {@code HEALTHY} or its active node is not the partition map's primary.
 */
final class AdminCommand {

    /** Exit status: the command did what it was asked. */
    public static final int DONE = 0;
    /** Exit status: the node refused, could not be reached, or the wait timed out. */
    public static final int FAILED = 1;
    /** Exit status: the command line is wrong. */
    public static final int BAD_USAGE = 2;

    /** How long {@code drain} and {@code rebalance} wait for the cluster by default. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);
    /** How often the map is polled while waiting. */
    static final Duration POLL_INTERVAL = Duration.ofSeconds(1);
    /** A rebalance is done once this many polls in a row saw the same map version and nothing moving. */
    static final int SETTLED_POLLS = 3;
    /** While the progress line does not change it is still repeated every this many polls. */
    static final int REPEAT_PROGRESS_EVERY = 10;
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    static final String USAGE = String.join("\n",
            "usage: java -jar zaris-engine-<version>-server.jar admin --node <host:port> [options] <command>",
            "commands:",
            "  map                         print the cluster map: version, leader, nodes, each partition's owners",
            "                              (primary first), active node, epoch and health, and per-node counts",
            "  drain                       move every partition off the node --node names, and wait until the map",
            "                              gives it no role (it can then stop without a failover)",
            "  rebalance                   plan the map over the nodes present now (e.g. right after adding one),",
            "                              and wait until nothing has moved for " + SETTLED_POLLS + " polls in a row",
            "options:",
            "  --node <host:port>          data port of a node of the cluster (required; drain acts on this node)",
            "  --password-file <path>      file whose first line is the password (or set "
                    + ServerArguments.PASSWORD_VARIABLE + ")",
            "  --user <name>               user to log in as (default: " + Credentials.DEFAULT_USER
                    + ", the shared password); drain and rebalance need a read-write user",
            "  --tls-ca <pem>              connect over TLS, trusting these CA certificates",
            "  --tls                       connect over TLS, trusting the JVM's trust store",
            "  --no-wait                   drain, rebalance: return as soon as the node accepted the command",
            "  --timeout <duration>        drain, rebalance: stop waiting after this long, e.g. 90s or 15m (default "
                    + DEFAULT_TIMEOUT.toMinutes() + "m)",
            "  --help                      print this help",
            "exit status: 0 done, 1 refused, unreachable or timed out, 2 bad command line");

    private static final Set<String> COMMANDS = Set.of("map", "drain", "rebalance");
    private static final Set<String> VALUED = Set.of("--node", "--password-file", "--user", "--tls-ca", "--timeout");
    private static final Set<String> FLAGS = Set.of("--no-wait", "--tls");

    private AdminCommand() {
    }

    /**
     * A parsed {@code admin} command line.
     *
     * @param credentials what to log in with; {@code null} for a node without passwords
     * @param tls         whether to connect over TLS
     * @param tlsCa       CA certificates to trust over TLS; {@code null} for the JVM's trust store
     * @param await       whether drain and rebalance wait for the cluster to finish
     */
    record Options(String command, NodeAddress node, Credentials credentials, boolean tls, Path tlsCa, boolean await,
                   Duration timeout) {
    }

    /** A node to send operator commands to. Its failures carry a message fit for the operator. */
    interface Node extends AutoCloseable {

        /** The id the node announced when the connection was made. */
        String nodeId();

        ClusterView clusterMap() throws Exception;

        void drain() throws Exception;

        void rebalance() throws Exception;

        @Override
        void close();
    }

    /** Opens the connection to the node the options name. */
    @FunctionalInterface
    interface Connector {
        Node connect(Options options) throws Exception;
    }

    /**
     * Time as the command sees it: the engine's {@link TimeSource}, which the wait loops and the request deadlines
     * read, and the sleep between two polls, so tests run the loops on a fake clock.
     */
    interface Clock extends TimeSource {
        void sleep(Duration duration) throws InterruptedException;

        /** The system clock, and a real sleep of the command's own thread between polls. */
        Clock SYSTEM = new Clock() {
            @Override
            public long nanoTime() {
                return TimeSource.system().nanoTime();
            }

            @Override
            public long currentTimeMillis() {
                return TimeSource.system().currentTimeMillis();
            }

            @Override
            public void sleep(Duration duration) throws InterruptedException {
                Thread.sleep(duration.toMillis());
            }
        };
    }

    /** Runs {@code admin} with the arguments after it; returns the exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Clock clock = Clock.SYSTEM;
        return run(args, System.getenv(), AdminCommand::readLines, options -> DataPortNode.connect(options, clock), clock,
                out, err);
    }

    static int run(String[] args, Map<String, String> environment, ServerArguments.FileReader files, Connector connector,
                   Clock clock, PrintStream out, PrintStream err) {
        if (wantsHelp(args)) {
            out.println(USAGE);
            return DONE;
        }
        Options options;
        try {
            options = parse(args, environment, files);
        } catch (IllegalArgumentException e) {
            err.println("zaris admin: " + e.getMessage());
            err.println(USAGE);
            return BAD_USAGE;
        }
        try {
            return execute(options, connector, clock, out, err);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("zaris admin: interrupted");
            return FAILED;
        }
    }

    static boolean wantsHelp(String[] args) {
        for (String arg : args) {
            if (arg.equals("--help") || arg.equals("-h") || arg.equals("help")) {
                return true;
            }
        }
        return false;
    }

    private static List<String> readLines(String path) throws java.io.IOException {
        try {
            return Files.readAllLines(Path.of(path), StandardCharsets.UTF_8);
        } catch (InvalidPathException e) {
            throw new java.io.IOException("not a file name", e);
        }
    }

    /**
     * Parses the arguments after {@code admin}. Pure: errors are {@link IllegalArgumentException}s naming the
     * option and the offending value.
     */
    static Options parse(String[] args, Map<String, String> environment, ServerArguments.FileReader files) {
        String command = null;
        java.util.HashMap<String, String> values = new java.util.HashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("-")) {
                if (command != null) {
                    throw new IllegalArgumentException("one command at a time: got '" + command + "' and '" + arg + "'");
                }
                if (!COMMANDS.contains(arg)) {
                    throw new IllegalArgumentException("unknown command '" + arg + "'; expected map, drain or rebalance");
                }
                command = arg;
                continue;
            }
            if (FLAGS.contains(arg)) {
                values.put(arg, "true");
                continue;
            }
            String name = arg;
            String value = null;
            int equals = arg.indexOf('=');
            if (equals > 0) {
                name = arg.substring(0, equals);
                value = arg.substring(equals + 1);
            } else if (VALUED.contains(name) && i + 1 < args.length) {
                value = args[++i];
            }
            if (FLAGS.contains(name)) {
                throw new IllegalArgumentException("option " + name + " takes no value");
            }
            if (!VALUED.contains(name)) {
                throw new IllegalArgumentException("unknown option '" + name + "'");
            }
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException("option " + name + " needs a value");
            }
            values.put(name, value);
        }
        if (command == null) {
            throw new IllegalArgumentException("a command is required: map, drain or rebalance");
        }
        if (!values.containsKey("--node")) {
            throw new IllegalArgumentException("--node <host:port> is required: the data port of a node of the cluster");
        }
        NodeAddress node;
        try {
            node = NodeAddress.parse(values.get("--node"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--node: " + e.getMessage(), e);
        }
        Duration timeout = DEFAULT_TIMEOUT;
        if (values.containsKey("--timeout")) {
            timeout = ServerArguments.duration("--timeout", values.get("--timeout"));
            if (timeout.isZero()) {
                throw new IllegalArgumentException("--timeout must be longer than 0 (use --no-wait not to wait)");
            }
        }
        Path tlsCa = null;
        if (values.containsKey("--tls-ca")) {
            try {
                tlsCa = Path.of(values.get("--tls-ca"));
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException("--tls-ca: not a file name: " + e.getInput(), e);
            }
        }
        return new Options(command, node, credentials(values, environment, files),
                tlsCa != null || values.containsKey("--tls"), tlsCa, !values.containsKey("--no-wait"), timeout);
    }

    /** The password from {@code --password-file}, else the server's environment variable; {@code null} for none. */
    private static Credentials credentials(Map<String, String> values, Map<String, String> environment,
                                           ServerArguments.FileReader files) {
        String password;
        String source;
        if (values.containsKey("--password-file")) {
            source = "--password-file " + values.get("--password-file");
            List<String> lines;
            try {
                lines = files.readLines(values.get("--password-file"));
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException(source + " cannot be read: " + e.getMessage(), e);
            }
            password = lines.isEmpty() ? "" : lines.get(0);
        } else {
            source = "environment variable " + ServerArguments.PASSWORD_VARIABLE;
            password = environment.get(ServerArguments.PASSWORD_VARIABLE);
        }
        String user = values.getOrDefault("--user", Credentials.DEFAULT_USER);
        if (password == null) {
            if (values.containsKey("--user")) {
                throw new IllegalArgumentException("--user needs a password: give --password-file or set "
                        + ServerArguments.PASSWORD_VARIABLE);
            }
            return null;
        }
        if (password.isEmpty()) {
            throw new IllegalArgumentException(source + " is empty");
        }
        try {
            return new Credentials(user, password);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException((values.containsKey("--user") ? "--user: " : source + ": ") + e.getMessage(), e);
        }
    }

    /** Runs a parsed command; returns the exit status. */
    static int execute(Options options, Connector connector, Clock clock, PrintStream out, PrintStream err)
            throws InterruptedException {
        Node node;
        try {
            node = connector.connect(options);
        } catch (IllegalArgumentException e) {
            // The options name something unusable, e.g. a CA file that does not exist.
            err.println("zaris admin: " + e.getMessage());
            return BAD_USAGE;
        } catch (Exception e) {
            err.println("zaris admin: cannot reach " + options.node() + ": " + describe(e));
            return FAILED;
        }
        try (node) {
            switch (options.command()) {
                case "map":
                    out.print(formatMap(node.clusterMap()));
                    return DONE;
                case "drain":
                    return drain(options, node, clock, out, err);
                default:
                    return rebalance(options, node, clock, out, err);
            }
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            err.println("zaris admin: " + options.command() + " via " + options.node() + " failed: " + describe(e));
            return FAILED;
        }
    }

    private static int drain(Options options, Node node, Clock clock, PrintStream out, PrintStream err) throws Exception {
        String target = node.nodeId();
        node.drain();
        out.println("node " + target + " is draining: its partitions move to the other nodes");
        if (!options.await()) {
            out.println("not waiting (--no-wait); follow it with: admin --node " + options.node() + " map");
            return DONE;
        }
        Poll poll = new Poll(options, clock, out, err);
        while (true) {
            ClusterView view = poll.fetch(node);
            if (view != null) {
                if (hasNoRole(view, target)) {
                    out.println("node " + target + " is drained: map version " + view.partitionMap().version()
                            + " gives it no role; it can be stopped");
                    out.print(formatNodeCounts(view));
                    return DONE;
                }
                poll.progress(drainProgress(view, target));
            }
            if (!poll.waitForNext()) {
                err.println("zaris admin: node " + target + " did not drain within " + describe(options.timeout())
                        + (view == null ? "" : ": " + drainProgress(view, target)) + "; it keeps draining");
                return FAILED;
            }
        }
    }

    private static int rebalance(Options options, Node node, Clock clock, PrintStream out, PrintStream err)
            throws Exception {
        node.rebalance();
        out.println("node " + node.nodeId() + " asked the leader to rebalance the map over the nodes present");
        if (!options.await()) {
            out.println("not waiting (--no-wait); follow it with: admin --node " + options.node() + " map");
            return DONE;
        }
        Poll poll = new Poll(options, clock, out, err);
        long version = -1;
        int settled = 0;
        while (true) {
            ClusterView view = poll.fetch(node);
            if (view != null) {
                int moving = moving(view);
                long now = view.partitionMap().version();
                settled = moving > 0 ? 0 : now == version ? settled + 1 : 1;
                version = now;
                if (settled >= SETTLED_POLLS) {
                    out.println("rebalanced: map version " + now + ", nothing moving");
                    out.print(formatNodeCounts(view));
                    return DONE;
                }
                poll.progress(rebalanceProgress(view));
            }
            if (!poll.waitForNext()) {
                err.println("zaris admin: the rebalance did not settle within " + describe(options.timeout())
                        + (view == null ? "" : ": " + rebalanceProgress(view)) + "; it goes on");
                return FAILED;
            }
        }
    }

    /** The polling state of a wait: its deadline, and what was last printed. */
    private static final class Poll {
        private final Clock clock;
        private final PrintStream out;
        private final PrintStream err;
        private final long deadline;
        private String lastProgress;
        private String lastFailure;
        private int unchanged;

        Poll(Options options, Clock clock, PrintStream out, PrintStream err) {
            this.clock = clock;
            this.out = out;
            this.err = err;
            this.deadline = clock.nanoTime() + options.timeout().toNanos();
        }

        /** The node's map, or {@code null} when it could not be had this time (said once per distinct failure). */
        ClusterView fetch(Node node) throws InterruptedException {
            try {
                ClusterView view = node.clusterMap();
                lastFailure = null;
                return view;
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                String failure = describe(e);
                if (!failure.equals(lastFailure)) {
                    err.println("zaris admin: cannot fetch the map (trying again): " + failure);
                    lastFailure = failure;
                }
                return null;
            }
        }

        /** Prints a progress line when it changed, and every {@link #REPEAT_PROGRESS_EVERY} polls regardless. */
        void progress(String line) {
            if (!line.equals(lastProgress) || ++unchanged >= REPEAT_PROGRESS_EVERY) {
                out.println(line);
                lastProgress = line;
                unchanged = 0;
            }
        }

        /** Sleeps until the next poll; {@code false} once the deadline has passed. */
        boolean waitForNext() throws InterruptedException {
            long left = deadline - clock.nanoTime();
            if (left <= 0) {
                return false;
            }
            clock.sleep(Duration.ofNanos(Math.min(left, POLL_INTERVAL.toNanos())));
            return true;
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Reading a map (pure)

    /**
     * Whether the partition is being moved: not healthy, or not served by its primary (per partition, what
     * {@link ClusterView#unsettledPartitions()} counts).
     */
    static boolean isMoving(ClusterView view, int partition) {
        PartitionRuntime runtime = view.runtimeMap().get(partition);
        return runtime.health() != PartitionHealth.HEALTHY
                || !Objects.equals(runtime.activeNode(), view.partitionMap().primaryOf(partition));
    }

    static int moving(ClusterView view) {
        return view.unsettledPartitions();
    }

    /** Partitions the map still gives {@code nodeId} a role in: as an owner, or as the active node. */
    static int partitionsOn(ClusterView view, String nodeId) {
        int count = 0;
        for (int p = 0; p < view.layout().partitionCount(); p++) {
            if (view.partitionMap().ownersOf(p).contains(nodeId) || nodeId.equals(view.runtimeMap().get(p).activeNode())) {
                count++;
            }
        }
        return count;
    }

    /** What a drain waits for: the node owns nothing in the partition map and is active for nothing. */
    static boolean hasNoRole(ClusterView view, String nodeId) {
        return !view.partitionMap().nodes().contains(nodeId) && partitionsOn(view, nodeId) == 0;
    }

    static String drainProgress(ClusterView view, String nodeId) {
        return partitionsOn(view, nodeId) + " partitions still on " + nodeId + ", " + moving(view) + " moving";
    }

    static String rebalanceProgress(ClusterView view) {
        return "map version " + view.partitionMap().version() + ": " + moving(view) + " partitions moving";
    }

    /** Every node the view names: with an address, in the partition map, or active somewhere. */
    static SortedSet<String> nodesOf(ClusterView view) {
        SortedSet<String> nodes = new TreeSet<>(view.addresses().keySet());
        nodes.addAll(view.voters());
        nodes.addAll(view.partitionMap().nodes());
        for (PartitionRuntime runtime : view.runtimeMap().partitions()) {
            if (runtime.activeNode() != null) {
                nodes.add(runtime.activeNode());
            }
        }
        return nodes;
    }

    /** The whole map for an operator: header, nodes, one row per partition, the summary and per-node counts. */
    static String formatMap(ClusterView view) {
        StringBuilder text = new StringBuilder();
        PartitionMap map = view.partitionMap();
        text.append("cluster map version ").append(map.version())
                .append(", leader ").append(view.leader() == null ? "unknown" : view.leader())
                .append(", replication factor ").append(map.replicationFactor())
                .append(", ").append(view.layout().segmentCount()).append(" segments\n");
        SortedSet<String> nodes = nodesOf(view);
        int idWidth = width(nodes, "node");
        text.append("nodes:\n");
        for (String node : nodes) {
            NodeAddress address = view.addresses().get(node);
            String note = map.nodes().contains(node) ? ""
                    : view.voters().contains(node) ? "  (no partitions in the map; still counted towards a majority)"
                    : "  (no partitions in the map)";
            text.append("  ").append(pad(node, idWidth)).append("  ")
                    .append(address == null ? "(address unknown)" : address.toString()).append(note).append('\n');
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"partition", "owners (primary first)", "active", "epoch", "health", ""});
        for (int p = 0; p < view.layout().partitionCount(); p++) {
            PartitionRuntime runtime = view.runtimeMap().get(p);
            rows.add(new String[] {Integer.toString(p), String.join(",", map.ownersOf(p)),
                    runtime.activeNode() == null ? "-" : runtime.activeNode(), Long.toString(runtime.epoch()),
                    runtime.health().name(), isMoving(view, p) ? "moving" : ""});
        }
        text.append("partitions:\n").append(table(rows, new boolean[] {true, false, false, true, false, false}));
        text.append(summary(view)).append('\n');
        text.append(formatNodeCounts(view));
        return text.toString();
    }

    /** "N partitions, M moving (rebalance/heal in progress)". */
    static String summary(ClusterView view) {
        return view.layout().partitionCount() + " partitions, " + moving(view) + " moving (rebalance/heal in progress)";
    }

    /** Per node: partitions it is primary of, partitions it owns (primary or replica), partitions it serves now. */
    static String formatNodeCounts(ClusterView view) {
        PartitionMap map = view.partitionMap();
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"node", "primaries", "owned", "active"});
        for (String node : nodesOf(view)) {
            int primaries = 0;
            int owned = 0;
            int active = 0;
            for (int p = 0; p < view.layout().partitionCount(); p++) {
                if (node.equals(map.primaryOf(p))) {
                    primaries++;
                }
                if (map.ownersOf(p).contains(node)) {
                    owned++;
                }
                if (node.equals(view.runtimeMap().get(p).activeNode())) {
                    active++;
                }
            }
            rows.add(new String[] {node, Integer.toString(primaries), Integer.toString(owned), Integer.toString(active)});
        }
        return table(rows, new boolean[] {false, true, true, true});
    }

    /** Rows as aligned columns, two spaces apart, each line indented by two; numbers right-aligned. */
    private static String table(List<String[]> rows, boolean[] rightAligned) {
        int[] widths = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int c = 0; c < row.length; c++) {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        StringBuilder text = new StringBuilder();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder("  ");
            for (int c = 0; c < row.length; c++) {
                if (c > 0) {
                    line.append("  ");
                }
                String cell = row[c];
                String padding = " ".repeat(widths[c] - cell.length());
                line.append(rightAligned[c] ? padding + cell : cell + padding);
            }
            text.append(line.toString().stripTrailing()).append('\n');
        }
        return text.toString();
    }

    private static int width(Set<String> values, String heading) {
        int width = heading.length();
        for (String value : values) {
            width = Math.max(width, value.length());
        }
        return width;
    }

    private static String pad(String text, int width) {
        return text + " ".repeat(Math.max(0, width - text.length()));
    }

    static String describe(Duration duration) {
        long millis = duration.toMillis();
        if (millis % 60_000 == 0 && millis > 0) {
            return millis / 60_000 + "m";
        }
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }

    /** The message of a failure, without the wrappers futures add. */
    static String describe(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof ExecutionException || cause instanceof java.util.concurrent.CompletionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause.getMessage() == null ? cause.toString() : cause.getMessage();
    }

    // ---------------------------------------------------------------------------------------------------------
    // The real node: one data-port connection, opened again when it was lost

    /** Speaks the data protocol to one node; reconnects lazily after a lost connection. */
    static final class DataPortNode implements Node {

        private final Options options;
        private final TlsOptions tls;
        /** The connection's clock: it measures the answer deadlines, which are readings of it. */
        private final TimeSource time;
        private NodeConnection connection;
        private String nodeId;

        private DataPortNode(Options options, TlsOptions tls, TimeSource time) {
            this.options = options;
            this.tls = tls;
            this.time = time;
        }

        static Node connect(Options options, TimeSource time) throws Exception {
            TlsOptions tls = null;
            if (options.tls()) {
                TlsOptions.Builder builder = TlsOptions.builder();
                if (options.tlsCa() != null) {
                    builder.trustedCertificates(options.tlsCa());
                }
                tls = builder.build();
            }
            DataPortNode node = new DataPortNode(options, tls, time);
            node.connection();
            return node;
        }

        private NodeConnection connection() throws Exception {
            if (connection == null || !connection.isOpen()) {
                if (connection != null) {
                    connection.close();
                }
                connection = await(NodeConnection.open(options.node(), "zaris-admin", options.credentials(), tls,
                        CONNECT_TIMEOUT, CONNECT_TIMEOUT, 16, ProtocolLimits.DEFAULT_MAX_FRAME_BYTES, event -> { },
                        lost -> { }, time), CONNECT_TIMEOUT.plus(CONNECT_TIMEOUT));
                nodeId = connection.nodeId();
            }
            return connection;
        }

        @Override
        public String nodeId() {
            return nodeId;
        }

        @Override
        public ClusterView clusterMap() throws Exception {
            return send(Request.ClusterMap::new, "CLUSTER_MAP", true);
        }

        @Override
        public void drain() throws Exception {
            send(Request.AdminDrain::new, "drain", false);
        }

        @Override
        public void rebalance() throws Exception {
            send(Request.AdminRebalance::new, "rebalance", false);
        }

        private ClusterView send(LongFunction<Request> request, String what, boolean readsMap) throws Exception {
            NodeConnection open = connection();
            return await(open.send(request, (status, body) -> {
                if (status != KvStatus.OK) {
                    throw new IllegalStateException("node " + nodeId + " refused " + what + " (" + status + "): "
                            + ResponseCodec.readMessage(body));
                }
                return readsMap ? ClusterViewCodec.decode(body) : null;
            }, 0, (int) REQUEST_TIMEOUT.toMillis(), time.nanoTime() + REQUEST_TIMEOUT.toNanos()),
                    REQUEST_TIMEOUT.plusSeconds(1));
        }

        private static <T> T await(CompletableFuture<T> future, Duration timeout) throws Exception {
            try {
                return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            } catch (TimeoutException e) {
                future.cancel(false);
                throw new TimeoutException("no answer within " + describe(timeout));
            }
        }

        @Override
        public void close() {
            if (connection != null) {
                connection.close();
            }
        }
    }
}
