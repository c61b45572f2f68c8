package io.zaris.netbed;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Assumptions;

/**
 * A small network of real hosts for tests that cut links: N Linux network namespaces, each with its own IPv4
 * address, on one Linux bridge; the bridge itself has an address too, so the test JVM (the "host side",
 * {@value #HOST_SIDE}) reaches every host as a client on the network would. Needs root (or CAP_SYS_ADMIN and
 * CAP_NET_ADMIN), iproute2 ({@code ip}, {@code tc}) and nftables ({@code nft}).
 *
 * <pre>
 *   test JVM (root namespace) ── bridge zb&lt;id&gt;br 10.213.S.1/24
 *                                   ├── veth zb&lt;id&gt;v1 ── namespace zb&lt;id&gt;h1: eth0 10.213.S.11
 *                                   ├── veth zb&lt;id&gt;v2 ── namespace zb&lt;id&gt;h2: eth0 10.213.S.12
 *                                   └── ...
 * </pre>
 *
 * <p>Faults, all reversible by {@link #heal()}:
 * <ul>
 *   <li>{@link #cutLink}: the host's link goes down (its bridge port stops forwarding both ways), as when a cable
 *       or a switch port fails; neighbours' ARP entries for it fail after a few seconds;</li>
 *   <li>{@link #isolate}: a group of hosts is cut from all the others, the host side included, by dropping its
 *       packets silently (the links stay up, ARP keeps working: a firewall or routing partition);</li>
 *   <li>{@link #dropOneWay}: packets from one host to another vanish, the other direction works;</li>
 *   <li>{@link #lose}: a share of a host's packets is lost, both directions (nftables);</li>
 *   <li>{@link #delay}: latency and jitter on a host's link, both directions ({@code tc netem}; the kernel needs
 *       {@code CONFIG_NET_SCH_NETEM}, see {@link #supportsDelay()});</li>
 *   <li>{@link #throttle}: a host's link carries at most a given rate, both directions, and queues what exceeds it
 *       for up to a given time before dropping it ({@code tc tbf}): a congested or saturated link, whose delay grows
 *       with the traffic. Kernels without netem usually have it.</li>
 * </ul>
 * See {@link PacketFilter} for where the drops are enforced.
 *
 * <p>Addresses besides each host's own, for the address tests: {@link #addSecondAddress} (one more address on the
 * host's link) and {@link #translateAddress} (an address no host owns, rewritten to the host's by NAT rules in every
 * sender's output path, the host side's included). The packet-filter faults know neither.
 *
 * <p>Isolation from other runs and from the machine: every name (bridge, veths, namespaces) carries a random id, so
 * a crashed run cannot block the next, and the subnet is one the machine does not use yet. Traffic only ever goes
 * to the hosts the bed created. {@link #close()} kills every process still running in the namespaces and removes
 * every namespace, veth, the bridge and the host side's NAT table; a shutdown hook does the same when the JVM exits
 * first.
 *
 * <p>Not thread-safe: one test thread drives a bed.
 */
public final class NetworkBed implements AutoCloseable {

    /** Host number of the bridge's own address: the test JVM's side of the network. */
    public static final int HOST_SIDE = 0;
    /** First two octets of every bed's subnet; the third is picked free per bed. */
    private static final String NETWORK = "10.213.";
    /** Host {@code i} gets {@code .(HOST_OFFSET + i)}. */
    private static final int HOST_OFFSET = 10;
    /** Host {@code i}'s second address, when a test adds one, is {@code .(SECOND_ADDRESS_OFFSET + i)}. */
    private static final int SECOND_ADDRESS_OFFSET = 100;
    /** Host {@code i}'s translated address, when a test gives one, is {@code .(TRANSLATED_OFFSET + i)}: no host owns it. */
    private static final int TRANSLATED_OFFSET = 200;
    private static final int MAX_HOSTS = 20;
    /** Why a bed cannot be built on this machine, once asked; {@code null} until then. */
    private static volatile Optional<String> missing;

    private final String id;
    private final int subnet;
    private final int hosts;
    private final List<Process> processes = new ArrayList<>();
    private final Set<PacketFilter.Block> blocks = new TreeSet<>();
    private final Set<Integer> linksDown = new TreeSet<>();
    private final Map<Integer, Double> lossPercent = new TreeMap<>();
    private final Set<Integer> shapedLinks = new TreeSet<>();
    /** Hosts reached through a translated address ({@link #translateAddress}); owned by the test thread. */
    private final Set<Integer> translated = new TreeSet<>();
    private final Thread cleanupOnExit;
    private boolean closed;

    private NetworkBed(String id, int subnet, int hosts) {
        this.id = id;
        this.subnet = subnet;
        this.hosts = hosts;
        this.cleanupOnExit = new Thread(this::close, "netbed-cleanup-" + id);
    }

    /**
     * What this machine lacks to build a bed (not Linux, no {@code ip}, namespaces refused), or empty when a
     * namespace could be created and removed again. Asked once per JVM.
     */
    public static Optional<String> missingCapability() {
        Optional<String> known = missing;
        if (known == null) {
            known = probe();
            missing = known;
        }
        return known;
    }

    /**
     * Aborts the calling test, loudly, when this machine cannot create network namespaces; CI runs as root, where
     * this never triggers and the partition tests run.
     */
    public static void assumeAvailable() {
        Optional<String> reason = missingCapability();
        if (reason.isPresent()) {
            String banner = "!".repeat(100);
            System.err.println(banner);
            System.err.println("NETWORK PARTITION TESTS SKIPPED: " + reason.get());
            System.err.println(banner);
        }
        Assumptions.assumeTrue(reason.isEmpty(), () -> "network partition tests skipped: " + reason.orElse(""));
    }

    private static Optional<String> probe() {
        String os = System.getProperty("os.name", "");
        if (!os.toLowerCase(Locale.ROOT).contains("linux")) {
            return Optional.of("network namespaces need Linux, this is " + os);
        }
        Shell.Result ip = Shell.run(List.of("ip", "-V"));
        if (!ip.succeeded()) {
            return Optional.of("the 'ip' command (iproute2) is missing: " + ip.output().strip());
        }
        String name = "zbprobe" + randomId();
        Shell.Result add = Shell.run(List.of("ip", "netns", "add", name));
        if (!add.succeeded()) {
            return Optional.of("cannot create a network namespace ('ip netns add' said: " + add.output().strip()
                    + "); the tests need root, or CAP_SYS_ADMIN and CAP_NET_ADMIN");
        }
        Shell.run(List.of("ip", "netns", "del", name));
        return Optional.empty();
    }

    /** Builds a bed of {@code hosts} namespaces; requires {@code tc} and {@code nft} besides namespaces. */
    public static NetworkBed create(int hosts) {
        if (hosts < 1 || hosts > MAX_HOSTS) {
            throw new IllegalArgumentException("hosts must be in 1.." + MAX_HOSTS + " but was " + hosts);
        }
        missingCapability().ifPresent(reason -> {
            throw new IllegalStateException("no network test bed on this machine: " + reason);
        });
        requireTool(List.of("tc", "-V"), "tc (iproute2)");
        requireTool(List.of("nft", "--version"), "nft (Debian/Ubuntu: apt-get install nftables)");
        NetworkBed bed = new NetworkBed(randomId(), freeSubnet(), hosts);
        try {
            bed.build();
        } catch (RuntimeException e) {
            try {
                bed.close();
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        return bed;
    }

    private static void requireTool(List<String> versionCommand, String tool) {
        Shell.Result result = Shell.run(versionCommand);
        if (!result.succeeded()) {
            throw new IllegalStateException("the network test bed needs " + tool + ": '" + String.join(" ", versionCommand)
                    + "' said: " + result.output().strip());
        }
    }

    private static String randomId() {
        return String.format("%06x", ThreadLocalRandom.current().nextInt(1 << 24));
    }

    /** A third octet no address or route of this machine uses yet (10.213.S.0/24). */
    private static int freeSubnet() {
        String inUse = Shell.run(List.of("ip", "-4", "-o", "addr", "show")).orThrow().output()
                + Shell.run(List.of("ip", "-4", "route", "show", "table", "all")).orThrow().output();
        List<Integer> candidates = IntStream.rangeClosed(1, 254)
                .filter(s -> !inUse.contains(NETWORK + s + ".")).boxed().collect(Collectors.toList());
        if (candidates.isEmpty()) {
            throw new IllegalStateException("every subnet of " + NETWORK + "0.0/16 is in use on this machine");
        }
        return candidates.get(ThreadLocalRandom.current().nextInt(candidates.size()));
    }

    private void build() {
        Runtime.getRuntime().addShutdownHook(cleanupOnExit);
        ip("link", "add", bridge(), "type", "bridge");
        ip("link", "set", bridge(), "up");
        ip("addr", "add", address(HOST_SIDE) + "/24", "dev", bridge());
        for (int host = 1; host <= hosts; host++) {
            ip("netns", "add", namespace(host));
            ip("link", "add", veth(host), "type", "veth", "peer", "name", "eth0", "netns", namespace(host));
            ip("link", "set", veth(host), "master", bridge(), "up");
            ip("-n", namespace(host), "addr", "add", address(host) + "/24", "dev", "eth0");
            ip("-n", namespace(host), "link", "set", "lo", "up");
            ip("-n", namespace(host), "link", "set", "eth0", "up");
        }
    }

    public int hosts() {
        return hosts;
    }

    /** Host numbers 1..N. */
    public List<Integer> hostNumbers() {
        return IntStream.rangeClosed(1, hosts).boxed().toList();
    }

    /** The IPv4 address of host {@code host}; {@value #HOST_SIDE} is the bridge's (the test JVM's) address. */
    public String address(int host) {
        requireHostOrHostSide(host);
        return NETWORK + subnet + "." + (host == HOST_SIDE ? 1 : HOST_OFFSET + host);
    }

    /**
     * Gives host {@code host} a second address on its link, in the bed's subnet, and returns it: an address the
     * host side and every other host reach it at, distinct from {@link #address}. The packet filters ({@link
     * #isolate}, {@link #dropOneWay}, {@link #lose}) do not match it, so tests that use it apply none of them.
     * Removed with the namespace.
     */
    public String addSecondAddress(int host) {
        requireOpen();
        requireHost(host);
        String second = NETWORK + subnet + "." + (SECOND_ADDRESS_OFFSET + host);
        ip("-n", namespace(host), "addr", "add", second + "/24", "dev", "eth0");
        return second;
    }

    /**
     * Gives host {@code host} an address it does not own, as a NAT gateway or a Kubernetes Service gives a pod, and
     * returns it: whatever the host side or any host sends to it is rewritten on the way out (nftables DNAT in the
     * sender's output path) to the host's own {@link #address}, and the answers are rewritten back. The host side's
     * rules live in a table of its own in the machine's namespace, removed by {@link #close()}; the hosts' rules
     * go with their namespaces. {@link #translatedConnections} counts the connections opened through each.
     */
    public String translateAddress(int host) {
        requireOpen();
        requireHost(host);
        translated.add(host);
        String script = natScript();
        Shell.run(List.of("nft", "-f", "-"), script).orThrow();
        for (int each = 1; each <= hosts; each++) {
            Shell.run(List.of("ip", "netns", "exec", namespace(each), "nft", "-f", "-"), script).orThrow();
        }
        return translatedAddress(host);
    }

    private String translatedAddress(int host) {
        return NETWORK + subnet + "." + (TRANSLATED_OFFSET + host);
    }

    /** One transaction that replaces the NAT table (creating it first so the delete cannot fail). */
    private String natScript() {
        StringBuilder script = new StringBuilder().append("table ip ").append(natTable()).append('\n')
                .append("delete table ip ").append(natTable()).append('\n')
                .append("table ip ").append(natTable()).append(" {\n  chain out {\n")
                .append("    type nat hook output priority -100;\n");
        for (int host : translated) {
            script.append("    ip daddr ").append(translatedAddress(host)).append(" counter dnat to ")
                    .append(address(host)).append('\n');
        }
        return script.append("  }\n}\n").toString();
    }

    /**
     * Connections {@code from} (a host, or {@link #HOST_SIDE}) opened to host {@code to}'s translated address: the
     * NAT rule's counter, which sees only each connection's first packet (conntrack rewrites the rest).
     */
    public long translatedConnections(int from, int to) {
        requireOpen();
        requireHostOrHostSide(from);
        requireHost(to);
        List<String> list = new ArrayList<>();
        if (from != HOST_SIDE) {
            list.addAll(List.of("ip", "netns", "exec", namespace(from)));
        }
        list.addAll(List.of("nft", "list", "table", "ip", natTable()));
        String rules = Shell.run(list).orThrow().output();
        java.util.regex.Matcher counter = java.util.regex.Pattern.compile("ip daddr "
                + translatedAddress(to).replace(".", "\\.") + " counter packets (\\d+) ").matcher(rules);
        if (!counter.find()) {
            throw new IllegalStateException("host " + to + " has no translated address: " + rules);
        }
        return Long.parseLong(counter.group(1));
    }

    private String natTable() {
        return "zb" + id + "nat";
    }

    public String namespace(int host) {
        requireHost(host);
        return "zb" + id + "h" + host;
    }

    private String veth(int host) {
        return "zb" + id + "v" + host;
    }

    private String bridge() {
        return "zb" + id + "br";
    }

    /**
     * Starts {@code command} inside host {@code host}'s namespace, its output appended to {@code log}; it is killed
     * when the bed closes, if it still runs.
     */
    public Process start(int host, List<String> command, Path log) throws IOException {
        requireOpen();
        List<String> inNamespace = new ArrayList<>(List.of("ip", "netns", "exec", namespace(host)));
        inNamespace.addAll(command);
        Process process = new ProcessBuilder(inNamespace).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        processes.add(process);
        return process;
    }

    /** Sets host {@code host}'s link down: nothing passes its bridge port, either way. */
    public void cutLink(int host) {
        requireOpen();
        ip("link", "set", veth(host), "down");
        linksDown.add(host);
    }

    /** Sets host {@code host}'s link up again. */
    public void restoreLink(int host) {
        requireOpen();
        ip("link", "set", veth(host), "up");
        linksDown.remove(host);
    }

    /** Cuts {@code group} from every other host and from the host side, both ways; links stay up. */
    public void isolate(int... group) {
        requireOpen();
        Set<Integer> members = new HashSet<>();
        for (int host : group) {
            requireHost(host);
            members.add(host);
        }
        List<Integer> everyone = new ArrayList<>(hostNumbers());
        everyone.add(HOST_SIDE);
        blocks.addAll(PacketFilter.isolating(members, everyone));
        applyBlocks();
    }

    /**
     * Cuts {@code group} from every other host, both ways, while the host side still reaches every host: the
     * applications' clients (on the host side) keep talking to both halves, as clients spread over both sides
     * of a real split would.
     */
    public void isolateFromPeers(int... group) {
        requireOpen();
        Set<Integer> members = new HashSet<>();
        for (int host : group) {
            requireHost(host);
            members.add(host);
        }
        blocks.addAll(PacketFilter.isolating(members, hostNumbers()));
        applyBlocks();
    }

    /** Packets from {@code from} to {@code to} vanish; the other direction is left as it is. */
    public void dropOneWay(int from, int to) {
        requireOpen();
        requireHostOrHostSide(from);
        requireHostOrHostSide(to);
        blocks.add(new PacketFilter.Block(from, to));
        applyBlocks();
    }

    /** Loses {@code percent} % of the packets host {@code host} sends and receives, at random. */
    public void lose(int host, double percent) {
        requireOpen();
        requireHost(host);
        if (percent <= 0 || percent >= 100) {
            throw new IllegalArgumentException("loss must be between 0 and 100 % but was " + percent);
        }
        lossPercent.put(host, percent);
        applyBlocks();
    }

    /**
     * Whether this kernel can delay packets ({@code tc netem}); some minimal kernels are built without it, and
     * {@link #delay} then fails.
     */
    public boolean supportsDelay() {
        requireOpen();
        List<String> probe = List.of("ip", "netns", "exec", namespace(1), "tc", "qdisc", "add", "dev", "lo", "root",
                "netem", "delay", "1ms");
        if (!Shell.run(probe).succeeded()) {
            return false;
        }
        Shell.run(List.of("ip", "netns", "exec", namespace(1), "tc", "qdisc", "del", "dev", "lo", "root"));
        return true;
    }

    /** Delays every packet through host {@code host}'s link by {@code delay} ± {@code jitter}, both ways. */
    public void delay(int host, Duration delay, Duration jitter) {
        requireOpen();
        List<String> netem = List.of("netem", "delay", delay.toMillis() + "ms", jitter.toMillis() + "ms");
        List<String> inside = new ArrayList<>(List.of("ip", "netns", "exec", namespace(host),
                "tc", "qdisc", "replace", "dev", "eth0", "root"));
        inside.addAll(netem);
        Shell.Result result = Shell.run(inside);
        if (!result.succeeded()) {
            throw new IllegalStateException("cannot delay packets (the kernel needs CONFIG_NET_SCH_NETEM for tc netem): "
                    + result.output().strip());
        }
        shapedLinks.add(host);
        List<String> outside = new ArrayList<>(List.of("tc", "qdisc", "replace", "dev", veth(host), "root"));
        outside.addAll(netem);
        Shell.run(outside).orThrow();
    }

    /**
     * Limits host {@code host}'s link to {@code kilobitsPerSecond} each way; a packet beyond the rate waits in a queue
     * sized for {@code maxQueueing} at that rate and is dropped when the queue is full (a token bucket, {@code tc tbf}).
     */
    public void throttle(int host, long kilobitsPerSecond, Duration maxQueueing) {
        requireOpen();
        requireHost(host);
        if (kilobitsPerSecond <= 0 || maxQueueing.isNegative() || maxQueueing.isZero()) {
            throw new IllegalArgumentException("throttle needs a positive rate and queueing time, not "
                    + kilobitsPerSecond + " kbit/s and " + maxQueueing);
        }
        // The burst must hold at least one full-sized packet; 16 KiB also lets a heartbeat through an idle link at once.
        List<String> tbf = List.of("tbf", "rate", kilobitsPerSecond + "kbit", "burst", "16kb",
                "latency", maxQueueing.toMillis() + "ms");
        List<String> inside = new ArrayList<>(List.of("ip", "netns", "exec", namespace(host),
                "tc", "qdisc", "replace", "dev", "eth0", "root"));
        inside.addAll(tbf);
        Shell.run(inside).orThrow();
        shapedLinks.add(host);
        List<String> outside = new ArrayList<>(List.of("tc", "qdisc", "replace", "dev", veth(host), "root"));
        outside.addAll(tbf);
        Shell.run(outside).orThrow();
    }

    /** Undoes every fault: links up, no packet dropped, no latency, loss or rate limit. */
    public void heal() {
        requireOpen();
        for (int host : List.copyOf(linksDown)) {
            restoreLink(host);
        }
        if (!blocks.isEmpty() || !lossPercent.isEmpty()) {
            blocks.clear();
            lossPercent.clear();
            applyBlocks();
        }
        for (int host : List.copyOf(shapedLinks)) {
            Shell.run(List.of("ip", "netns", "exec", namespace(host), "tc", "qdisc", "del", "dev", "eth0", "root")).orThrow();
            Shell.run(List.of("tc", "qdisc", "del", "dev", veth(host), "root"));
            shapedLinks.remove(host);
        }
    }

    private void applyBlocks() {
        for (int host = 1; host <= hosts; host++) {
            String script = PacketFilter.script(host, blocks, lossPercent, this::address);
            Shell.run(List.of("ip", "netns", "exec", namespace(host), "nft", "-f", "-"), script).orThrow();
        }
    }

    /**
     * Kills every process left in the namespaces, then removes the veths, the namespaces and the bridge. Tries
     * every step and reports those that failed at the end.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<String> failures = new ArrayList<>();
        killProcesses();
        for (int host = 1; host <= hosts; host++) {
            if (exists("link", veth(host))) {
                record(failures, Shell.run(List.of("ip", "link", "del", veth(host))));
            }
            if (namespaceExists(namespace(host))) {
                record(failures, Shell.run(List.of("ip", "netns", "del", namespace(host))));
            }
        }
        if (!translated.isEmpty() && Shell.run(List.of("nft", "list", "table", "ip", natTable())).succeeded()) {
            record(failures, Shell.run(List.of("nft", "delete", "table", "ip", natTable())));
        }
        if (exists("link", bridge())) {
            record(failures, Shell.run(List.of("ip", "link", "del", bridge())));
        }
        if (Thread.currentThread() != cleanupOnExit) {
            try {
                Runtime.getRuntime().removeShutdownHook(cleanupOnExit);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or about to; it finds the bed closed
            }
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException("the network test bed " + id + " could not remove everything: " + failures);
        }
    }

    private void killProcesses() {
        List<ProcessHandle> victims = new ArrayList<>();
        processes.forEach(process -> victims.add(process.toHandle()));
        for (int host = 1; host <= hosts; host++) {
            if (namespaceExists(namespace(host))) {
                Shell.Result pids = Shell.run(List.of("ip", "netns", "pids", namespace(host)));
                Arrays.stream(pids.output().split("\\s+")).filter(pid -> pid.matches("\\d+"))
                        .forEach(pid -> ProcessHandle.of(Long.parseLong(pid)).ifPresent(victims::add));
            }
        }
        victims.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle victim : victims) {
            try {
                victim.onExit().get(10, TimeUnit.SECONDS);
            } catch (Exception stillThere) {
                // reported by the namespace removal below if it keeps the namespace busy
            }
        }
    }

    private static void record(List<String> failures, Shell.Result result) {
        if (!result.succeeded()) {
            failures.add(String.join(" ", result.command()) + ": " + result.output().strip());
        }
    }

    private static boolean exists(String object, String name) {
        return Shell.run(List.of("ip", object, "show", name)).succeeded();
    }

    private static boolean namespaceExists(String name) {
        return Arrays.stream(Shell.run(List.of("ip", "netns", "list")).output().split("\n"))
                .anyMatch(line -> line.equals(name) || line.startsWith(name + " "));
    }

    private static void ip(String... arguments) {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(arguments));
        Shell.run(command).orThrow();
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the network test bed " + id + " is closed");
        }
    }

    private void requireHost(int host) {
        if (host < 1 || host > hosts) {
            throw new IllegalArgumentException("host must be in 1.." + hosts + " but was " + host);
        }
    }

    private void requireHostOrHostSide(int host) {
        if (host != HOST_SIDE) {
            requireHost(host);
        }
    }

    @Override
    public String toString() {
        return "NetworkBed[" + id + ", " + NETWORK + subnet + ".0/24, " + hosts + " hosts]";
    }
}
