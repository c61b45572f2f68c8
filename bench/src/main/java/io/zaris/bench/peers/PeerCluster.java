package io.zaris.bench.peers;

import java.io.IOException;
import java.time.Duration;

/** A 3-node cluster of one system on loopback, started by the benchmark and stopped on close. */
interface PeerCluster extends AutoCloseable {

    /** Name shown in the tables, e.g. {@code Zaris ASYNC}. */
    String system();

    /** Copies of each entry the cluster keeps (primary plus replicas or backups). */
    int copiesPerEntry();

    /** How the cluster and its client are configured, for the report. */
    String configuration();

    KvClient connect();

    /** Whether the run measures this workload on this cluster (every one, unless a variant says otherwise). */
    default boolean measures(Workload workload) {
        return true;
    }

    MemoryReading memory(KvClient client) throws IOException, InterruptedException;

    /** The share of a node's memory the system recommends filling with data, with its documented source. */
    RecommendedOccupancy recommendedOccupancy();

    /** CPU time the cluster's server processes used since they started (see {@link LocalProcesses#cpuTime}). */
    Duration serverCpuTime();

    /** Of that, what the server JVMs' compiler and collector threads used (none for servers that are no JVM). */
    ThreadCpu.Housekeeping serverHousekeeping();

    @Override
    void close();
}
