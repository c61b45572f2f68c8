package io.zaris.bench.peers;

/**
 * One system's 3-node cluster on loopback under a failover run: the client an application would use (the load
 * goes through it and nothing else), and a separate observer through which the run asks about redundancy, so that
 * observing never refreshes the application client's routing.
 *
 * <p>Failure assumptions: after {@link #kill} the victim is gone for good (nothing restarts it), and every other
 * method may find the cluster in any state: {@link #redundancyShortfall} says it cannot tell rather than throw.
 */
interface FailoverTarget extends AutoCloseable {

    /** Name in the report, e.g. {@code Zaris SYNC}. */
    String system();

    /** How the cluster and both clients are configured, for the report. */
    String configuration();

    /** The application's client. */
    KvClient client();

    /** Picks the node to kill; the cluster must be fully redundant. */
    Victim chooseVictim(VictimChoice choice) throws InterruptedException;

    /** Kills the node with SIGKILL and returns once the process is gone. */
    void kill(Victim victim) throws InterruptedException;

    /**
     * One look, bounded to a few seconds: what keeps the cluster from keeping every entry on as many live nodes as
     * before the kill, in a few words (e.g. {@code 40 of 128 partitions short}, {@code cannot tell: …}); empty when
     * nothing does. {@code killed} is {@link Victim#NONE} before the kill.
     */
    String redundancyShortfall(Victim killed) throws InterruptedException;

    /** Closes the clients and stops every process of the cluster; safe to call more than once, from any thread. */
    @Override
    void close();
}
