package io.zaris.bench.peers;

import java.util.concurrent.ThreadLocalRandom;

/** What a workload does per request: read, write, or a 90/10 read/write mix. */
enum Op {
    GET(1.0),
    PUT(0.0),
    MIX(0.9);

    /** Share of requests that are reads. */
    private final double readShare;

    Op(double readShare) {
        this.readShare = readShare;
    }

    boolean nextIsRead(ThreadLocalRandom random) {
        return readShare >= 1.0 || (readShare > 0.0 && random.nextDouble() < readShare);
    }

    String label() {
        return this == MIX ? "90/10" : name();
    }
}
