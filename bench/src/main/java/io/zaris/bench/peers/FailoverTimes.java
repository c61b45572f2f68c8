package io.zaris.bench.peers;

/**
 * The moments of one failover run, on the run's monotonic clock.
 *
 * @param steadyFromNanos from here to the kill, acknowledged writes give the steady-state latency (the second half
 *                        of the warm period: the first half lets the JVMs compile and the connections settle)
 * @param killNanos       just before the kill signal was sent
 * @param stopNanos       when the writers stopped sending
 */
record FailoverTimes(long steadyFromNanos, long killNanos, long stopNanos) {

    FailoverTimes {
        if (steadyFromNanos > killNanos || killNanos > stopNanos) {
            throw new IllegalArgumentException("the steady period, the kill and the stop come in that order, not "
                    + steadyFromNanos + ", " + killNanos + ", " + stopNanos);
        }
    }
}
