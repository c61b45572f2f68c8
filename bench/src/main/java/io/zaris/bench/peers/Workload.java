package io.zaris.bench.peers;

/** One measured combination: operation, value size and requests in flight. */
record Workload(Op op, int valueBytes, int inFlight) {

    String valueLabel() {
        return valueBytes >= 1024 && valueBytes % 1024 == 0 ? (valueBytes / 1024) + " KiB" : valueBytes + " B";
    }
}
