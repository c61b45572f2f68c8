package io.zaris.server;

import io.zaris.cluster.MembershipConfig;
import io.zaris.security.LoopbackAddresses;
import java.util.ArrayList;
import java.util.List;

/**
 * Which of a node's ports other machines could reach without the secret that protects them: the data and
 * RESP ports on a non-loopback address without a password, and the membership port on a non-loopback
 * address without a cluster secret (a password does not protect membership: any machine that reaches that
 * port could join the cluster and be given partitions, so receive their data).
 */
record UnprotectedPorts(List<Exposure> exposures) {

    /** One reachable, unprotected port. */
    record Exposure(String port, String address, String missing) {

        /** E.g. "membership port on 0.0.0.0 without a cluster secret". */
        String describe() {
            return port + " on " + address + " without a " + missing;
        }
    }

    static final String PASSWORD = "password";
    static final String CLUSTER_SECRET = "cluster secret";

    UnprotectedPorts {
        exposures = List.copyOf(exposures);
    }

    /**
     * @param respHost    {@code null} when the RESP port is off
     * @param clusterHost {@code null} when membership does not listen on the network (in-JVM clusters)
     */
    static UnprotectedPorts of(String host, String respHost, String clusterHost, boolean hasPassword,
                               boolean hasClusterSecret) {
        List<Exposure> exposures = new ArrayList<>();
        if (!hasPassword && !LoopbackAddresses.isLoopback(host)) {
            exposures.add(new Exposure("data port", host, PASSWORD));
        }
        if (!hasPassword && respHost != null && !LoopbackAddresses.isLoopback(respHost)) {
            exposures.add(new Exposure("RESP port", respHost, PASSWORD));
        }
        if (!hasClusterSecret && clusterHost != null && !LoopbackAddresses.isLoopback(clusterHost)) {
            exposures.add(new Exposure("membership port", clusterHost, CLUSTER_SECRET));
        }
        return new UnprotectedPorts(exposures);
    }

    static UnprotectedPorts of(NodeConfig config) {
        String clusterHost = config.membership() instanceof MembershipConfig.Tcp tcp ? tcp.bindHost() : null;
        return of(config.host(), config.resp() == null ? null : config.resp().host(), clusterHost,
                config.security().requiresAuthentication(), config.security().clusterSecret() != null);
    }

    boolean none() {
        return exposures.isEmpty();
    }
}
