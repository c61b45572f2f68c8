package io.zaris.cluster;

import io.zaris.model.NodeAddress;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * How a node finds its peers. Two transports: {@link InJvm} for every node of an embedded cluster inside
 * one JVM, and {@link Tcp} with a static seed list or DNS ({@link DnsDiscovery}) for separate processes and hosts.
 */
public sealed interface MembershipConfig {

    /** Nodes with the same cluster name form one cluster; different names never see each other. */
    String clusterName();

    /** The JGroups protocol stack as XML. */
    String toJGroupsXml();

    /**
     * How long an owner may serve after the leader last confirmed it (see {@code OwnerLease}); {@code null}
     * when the transport needs none (in one JVM nothing pauses or partitions a node on its own).
     */
    default Duration ownerLease() {
        return null;
    }

    /**
     * How long a member holds back a membership view that leaves out the coordinator it follows, waiting for its own
     * failure detection to suspect that coordinator (see {@code CoordinatorLoyalty}): failure detection's bound and a
     * margin. {@code null} when the transport has no failure detection and no links to fail one way (in one JVM a node
     * leaves only by closing its channel): views are installed as they come.
     */
    default Duration viewHoldLimit() {
        return null;
    }

    /**
     * How long a member must have heard nothing from the coordinator it follows before it installs a view without it
     * (see {@code CoordinatorLoyalty}); only where {@link #viewHoldLimit()} is not {@code null}.
     */
    default Duration coordinatorSilence() {
        return null;
    }

    record InJvm(String clusterName) implements MembershipConfig {

        @Override
        public String toJGroupsXml() {
            // No failure detector: in one JVM a node only leaves by closing its channel, a clean leave.
            return header()
                    + "  <SHARED_LOOPBACK/>\n"
                    + "  <SHARED_LOOPBACK_PING/>\n"
                    + "  <pbcast.NAKACK2 use_mcast_xmit=\"false\"/>\n"
                    + "  <UNICAST3/>\n"
                    + "  <pbcast.STABLE/>\n"
                    + "  <pbcast.GMS print_local_addr=\"false\" join_timeout=\"500\"/>\n"
                    + "  <FRAG2/>\n"
                    + "</config>\n";
        }
    }

    /**
     * Separate processes and hosts: JGroups over TCP with a static seed list. The stack is built for half-open peers —
     * a member whose link was cut keeps its TCP connections open on the other side, with nobody answering:
     *
     * <ul>
     *   <li><b>Transport {@code TCP_NIO2}</b>, not {@code TCP}. {@code TCP} sends every message of the node from one
     *       bundler thread; a message to an unreachable member makes that thread wait, up to {@code
     *       sock_conn_timeout} (2 s) per connect attempt under a lock, or indefinitely in a write once the socket
     *       buffer is full, and every message to the healthy members waits behind it. After a cut member was
     *       excluded, {@code UNICAST3} kept retransmitting to it every 500 ms, each retransmission a new 2 s connect:
     *       heartbeats, suspicion checks and view installations between the healthy members were delayed by seconds,
     *       so they suspected and excluded each other. {@code TCP_NIO2} connects and writes without blocking: a
     *       message for an unreachable member waits in that member's bounded queue (dropped when it is full, and
     *       retransmitted by {@code UNICAST3}/{@code NAKACK2} like any lost message), nothing else waits.</li>
     *   <li><b>Connection reaper</b>: a connection that received nothing for {@value #CONNECTION_EXPIRY_MILLIS} ms
     *       is closed. Healthy members hear each other's heartbeat several times in that time, so only connections
     *       to silent peers go: a non-blocking connect to an unreachable peer otherwise stays pending
     *       through the kernel's SYN back-off (retries 1, 3, 7, 15, 31 s after the first), and after a cut was
     *       healed the merge waited for that retry (22 s after a 60 s cut). Closed, the next message opens a fresh
     *       connection that succeeds as soon as the link is back.</li>
     *   <li><b>Failure detection</b> excludes a silent member between the escalation timeout and one heartbeat
     *       interval ({@link #heartbeatMillis()}, at most {@value #HEARTBEAT_MILLIS} ms) after its last message:
     *       {@code FD_ALL3} suspects it after {@link #suspectMillis()} of silence, noticed on its next check (every
     *       heartbeat interval), and {@code VERIFY_SUSPECT2} confirms for {@value #VERIFY_MILLIS} ms. Never earlier
     *       than the owner lease with a margin: a cut-off node, the leader included (its own grant ends with its
     *       leader lease), serves for up to one lease after it was last confirmed. {@code FD_SOCK2} still notices
     *       a crashed process at once through its closed socket, and the verification confirms it within
     *       {@value #VERIFY_MILLIS} ms.</li>
     *   <li><b>{@code FD_SOCK2} binds the membership address</b>, not every interface. Bound to the wildcard, its
     *       server's own address is {@code 0.0.0.0:<port>}, and it names itself so to the peers it connects to;
     *       with the same membership port on every host (the default) a peer then took a CONNECT from another node
     *       for one from itself and sent the answer to itself. The connecting node waited {@code connect_timeout}
     *       (1 s), tried the next ports, and suspected its healthy neighbour (verification cleared it); it watched
     *       no neighbour's socket, so on three hosts a {@code kill -9} was noticed after 3.4–4.5 s instead of
     *       1.6 s; and as {@code FD_SOCK2} connects inside every view installation, each view change stalled for
     *       that second, on the coordinator before it sends the view and on every member before it acknowledges
     *       it. (Loopback tests never showed it: there every node has a port of its own.)</li>
     *   <li><b>{@code MERGE3}</b> looks for other subgroups every {@value #MERGE_MIN_INTERVAL_MILLIS}–{@value
     *       #MERGE_MAX_INTERVAL_MILLIS} ms (and compares views every 1.6 × the latter), so a healed partition merges
     *       within seconds; with the cluster secret, {@link ClusterSecretToken} accepts the merge leader's requests
     *       to itself.</li>
     * </ul>
     *
     * @param bindHost          the address the membership port binds to
     * @param bindPort          the membership ("cluster") port
     * @param seeds             membership ports of the nodes to contact at start; may include this node
     * @param escalationTimeout how long a silent (hung, unreachable) node is suspected before membership
     *                          confirms it gone and its partitions fail over; a crashed process is noticed
     *                          at once through its closed sockets
     * @param advertised        the address peers reach this member's membership port at, when it differs from
     *                          the bind address (a wildcard bind, NAT, a container's published port);
     *                          {@code null}: the bind address itself. {@code FD_SOCK2} announces the same host.
     *                          With a wildcard {@code bindHost} the port listens on this host ({@link #listenHost()})
     * @param dns               find peers in DNS ({@code DNS_PING}) instead of the static {@code seeds};
     *                          {@code null}: the seeds ({@code TCPPING})
     */
    record Tcp(String clusterName, String bindHost, int bindPort, List<NodeAddress> seeds, Duration escalationTimeout,
               NodeAddress advertised, DnsDiscovery dns)
            implements MembershipConfig {

        /** A silent (hung) member is excluded, and its partitions fail over, after 10 s. */
        public static final Duration DEFAULT_ESCALATION_TIMEOUT = Duration.ofSeconds(10);
        /**
         * The last stretch of the escalation: suspicion is verified this long before exclusion. It is also the
         * whole of the wait after {@code FD_SOCK2} saw a crashed process's socket close, so it is short: a live
         * member answers "are you dead?" in milliseconds, and a hung one was silent for the whole suspicion time
         * before. (At 1.5 s, a {@code kill -9} was excluded 1.55 s after the crash and writes resumed after about
         * 2-2.9 s, over the 2 s target; at 0.5 s, the view without it came 0.6-0.8 s after the crash on a loaded
         * machine, of 1.3-2.6 s until its last key was written again.)
         */
        static final long VERIFY_MILLIS = 250;
        /**
         * Heartbeat interval of the failure detector, also the latest a silent member is excluded after the
         * escalation timeout (shorter for escalation timeouts below 2.5 s).
         */
        static final long HEARTBEAT_MILLIS = 500;
        /** A connection that received nothing for this long (six heartbeats) is closed: its peer is silent. */
        static final long CONNECTION_EXPIRY_MILLIS = 3000;
        /** How often connections are checked for expiry. */
        static final long REAPER_INTERVAL_MILLIS = 1000;
        /**
         * How long a merge leader waits for the subgroups' coordinators to answer (JGroups' default is 5 s). A node
         * that answered a merge request refuses every other merge until the merge view arrives or twice this has
         * passed. A request sent during a partition reaches its target only when the link heals (it is retransmitted),
         * long after its merge ended, so the healed coordinator then refused the merge that would have healed the
         * cluster: 10 s of the 12-16 s a one-way partition took to merge back after healing. Answers take
         * milliseconds on a working network; a merge that misses one is retried within seconds.
         */
        static final long MERGE_TIMEOUT_MILLIS = 2000;
        /** Shortest wait between two rounds of looking for other subgroups to merge with. */
        static final long MERGE_MIN_INTERVAL_MILLIS = 1000;
        /** Longest wait between two such rounds; views are compared every 1.6 times this. */
        static final long MERGE_MAX_INTERVAL_MILLIS = 2000;

        public Tcp {
            seeds = List.copyOf(seeds);
            if (seeds.isEmpty() && dns == null) {
                throw new IllegalArgumentException("at least one seed (host:clusterPort) is required");
            }
            if (isWildcard(bindHost) && advertised == null) {
                throw new IllegalArgumentException("membership bound to every interface (" + bindHost + ") needs an"
                        + " advertised address: peers cannot reach a member at " + bindHost);
            }
            if (escalationTimeout == null || escalationTimeout.toMillis() < 2 * VERIFY_MILLIS) {
                throw new IllegalArgumentException("escalation timeout must be at least " + 2 * VERIFY_MILLIS
                        + " ms but was " + escalationTimeout);
            }
        }

        public Tcp(String clusterName, String bindHost, int bindPort, List<NodeAddress> seeds) {
            this(clusterName, bindHost, bindPort, seeds, DEFAULT_ESCALATION_TIMEOUT);
        }

        /** Static seeds, announcing the bind address. */
        public Tcp(String clusterName, String bindHost, int bindPort, List<NodeAddress> seeds, Duration escalationTimeout) {
            this(clusterName, bindHost, bindPort, seeds, escalationTimeout, null, null);
        }

        /** The same membership, announced at {@code advertised} ({@code null}: the bind address). */
        public Tcp withAdvertised(NodeAddress advertised) {
            return new Tcp(clusterName, bindHost, bindPort, seeds, escalationTimeout, advertised, dns);
        }

        /** The same membership, finding peers through {@code dns} ({@code null}: the static seeds). */
        public Tcp withDns(DnsDiscovery dns) {
            return new Tcp(clusterName, bindHost, bindPort, seeds, escalationTimeout, advertised, dns);
        }

        /**
         * Half the escalation timeout: a node that stopped hearing the leader stops serving well before the
         * majority can have excluded it (at the earliest the escalation timeout after its last message) and
         * promoted a replacement; a cut-off leader, which confirms its own lease while its leader lease lasts,
         * stops at the latest the escalation timeout after the last beat a majority answered.
         */
        @Override
        public Duration ownerLease() {
            return escalationTimeout.dividedBy(2);
        }

        /** The escalation timeout, by which a silent coordinator is excluded, and a second for a loaded machine. */
        @Override
        public Duration viewHoldLimit() {
            return escalationTimeout.plusSeconds(1);
        }

        /**
         * Two heartbeat intervals: a live coordinator is heard at least every interval (its heartbeats), and after a
         * crash the view without it arrives a quarter to half a second later, so it waits little beyond that.
         */
        @Override
        public Duration coordinatorSilence() {
            return Duration.ofMillis(2 * heartbeatMillis());
        }

        /** How often every member multicasts a heartbeat, and how often silence is checked. */
        long heartbeatMillis() {
            return Math.min(HEARTBEAT_MILLIS, (escalationTimeout.toMillis() - VERIFY_MILLIS) / 4);
        }

        /**
         * Silence after which a member is suspected: the escalation timeout less the verification. {@code FD_ALL3}
         * notices it on its next check, up to one heartbeat interval later.
         */
        long suspectMillis() {
            return escalationTimeout.toMillis() - VERIFY_MILLIS;
        }

        @Override
        public String toJGroupsXml() {
            long heartbeat = heartbeatMillis();
            String bindHost = listenHost();
            String external = advertised == null ? ""
                    : " external_addr=\"" + advertised.host() + "\" external_port=\"" + advertised.port() + "\"";
            return header()
                    + "  <TCP_NIO2 bind_addr=\"" + bindHost + "\" bind_port=\"" + bindPort + "\" port_range=\"0\"" + external
                    + " reaper_interval=\"" + REAPER_INTERVAL_MILLIS + "\" conn_expire_time=\"" + CONNECTION_EXPIRY_MILLIS + "\"/>\n"
                    + discoveryXml()
                    + "  <MERGE3 min_interval=\"" + MERGE_MIN_INTERVAL_MILLIS + "\" max_interval=\"" + MERGE_MAX_INTERVAL_MILLIS + "\"/>\n"
                    // Watched by its neighbour at the advertised host: bound to a wildcard it would name itself 0.0.0.0.
                    + "  <FD_SOCK2 bind_addr=\"" + bindHost + "\""
                    + (advertised == null ? "" : " external_addr=\"" + advertised.host() + "\"") + "/>\n"
                    + "  <FD_ALL3 timeout=\"" + suspectMillis() + "\" interval=\"" + heartbeat + "\"/>\n"
                    + "  <VERIFY_SUSPECT2 timeout=\"" + VERIFY_MILLIS + "\"/>\n"
                    + "  <pbcast.NAKACK2 use_mcast_xmit=\"false\"/>\n"
                    + "  <UNICAST3/>\n"
                    + "  <pbcast.STABLE/>\n"
                    // A node restarting while the coordinator is hung or not yet excluded must not retry its
                    // JOIN for long: after 3 tries it starts alone and MERGE3 merges it within seconds.
                    // A merge waits MERGE_TIMEOUT_MILLIS for the subgroups' answers, and a node that answered gives the
                    // merge up twice that long after; see the constant.
                    + "  <pbcast.GMS print_local_addr=\"false\" join_timeout=\"2000\" max_join_attempts=\"3\""
                    + " merge_timeout=\"" + MERGE_TIMEOUT_MILLIS + "\"/>\n"
                    + "  <FRAG2/>\n"
                    + "</config>\n";
        }

        /**
         * The address JGroups binds. It refuses a wildcard ("not a valid address on any local network interface"), so
         * a wildcard membership bind listens on the advertised host instead, which must then be one of this host's
         * addresses (a pod's IP is; behind NAT give a local {@code bindHost} and the outside address as advertised).
         */
        String listenHost() {
            return isWildcard(bindHost) ? advertised.host() : bindHost;
        }

        /** {@code TCPPING} over the static seeds, or {@code DNS_PING} asking DNS for the peers each time. */
        private String discoveryXml() {
            if (dns != null) {
                return "  <dns.DNS_PING dns_query=\"" + dns.query() + "\" dns_record_type=\"" + dns.recordType() + "\""
                        + (dns.server() == null ? "" : " dns_address=\"" + dns.server() + "\"")
                        + " async_discovery=\"true\"/>\n";
            }
            String initialHosts = seeds.stream()
                    .map(seed -> seed.host() + "[" + seed.port() + "]")
                    .collect(Collectors.joining(","));
            return "  <TCPPING initial_hosts=\"" + initialHosts + "\" port_range=\"0\" async_discovery=\"true\"/>\n";
        }
    }

    /**
     * Peers found in DNS ({@code DNS_PING}), as a Kubernetes headless Service publishes its pods. Every discovery
     * round asks again, so a member added to DNS later is found by the members already running (and merged in
     * by {@code MERGE3} when it started alone).
     *
     * @param query      the name to look up, e.g. {@code zaris-cluster.default.svc.cluster.local}
     * @param recordType {@link RecordType#A} (the members' addresses; every member listens on this member's
     *                   membership port) or {@link RecordType#SRV} (records carry each member's host and port)
     * @param server     {@code host} or {@code host:port} of the DNS server to ask; {@code null}: the system's
     */
    public record DnsDiscovery(String query, RecordType recordType, String server) {

        /** The kinds of DNS record {@code DNS_PING} reads. */
        public enum RecordType { A, SRV }

        public DnsDiscovery {
            if (query == null || query.isBlank() || !query.matches("[A-Za-z0-9_.-]+")) {
                throw new IllegalArgumentException("DNS discovery needs a name of letters, digits, '.', '-' and '_'"
                        + " but was '" + query + "'");
            }
            java.util.Objects.requireNonNull(recordType, "recordType");
            if (server != null && (server.isBlank() || !server.matches("[A-Za-z0-9_.:\\[\\]-]+"))) {
                throw new IllegalArgumentException("DNS server must be host or host:port but was '" + server + "'");
            }
        }
    }

    /** {@code 0.0.0.0}, {@code ::} and their spellings: every interface, an address nobody can be reached at. */
    public static boolean isWildcard(String host) {
        if (host == null) {
            return false;
        }
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        return bare.equals("0.0.0.0") || bare.contains(":") && bare.matches("[0:]+");
    }

    private static String header() {
        return "<config xmlns=\"urn:org:jgroups\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n"
                + "        xsi:schemaLocation=\"urn:org:jgroups http://www.jgroups.org/schema/jgroups.xsd\">\n";
    }
}
