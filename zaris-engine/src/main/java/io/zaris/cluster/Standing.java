package io.zaris.cluster;

/**
 * Where a node stands in its membership view: whether it sees a majority of the voters (writes need it), whether it
 * leads (it coordinates that majority), and whether it may decide (it leads and a majority confirmed its leadership
 * within the lease). Each change is reported once, for the member to log.
 *
 * <p>Pure: the member passes the counts, the leadership and the confirmation it read.
 *
 * <p>Concurrency: {@link #refresh} and {@link #mayDecide} run on the cluster member's events thread, which owns the
 * fields; {@link #inMajority()} and {@link #leading()} are read from any thread through volatile fields.
 */
final class Standing {

    /** How the majority changed at a refresh. */
    enum MajorityChange {
        /** Still held, still lacking, or just regained: nothing to report. */
        NONE,
        /** Lost, but the members whose hellos have not arrived yet would make it up. */
        AWAITING_HELLOS,
        /** Lost: too few voters in the view. */
        LOST
    }

    /**
     * Whether this node may decide, and whether it just started to lead without a confirmed leadership (reported
     * once per stretch of it).
     */
    record Authority(boolean decides, boolean unconfirmedNow) {
    }

    private volatile boolean inMajority;
    private volatile boolean leading;
    private boolean unconfirmed;

    /**
     * After every membership view, hello and installed view: the view holds {@code voters} of {@code votingSize}
     * voters, {@code withoutHello} members have not announced themselves yet, and this node {@code leads} or not.
     */
    MajorityChange refresh(int voters, int votingSize, int withoutHello, boolean leads) {
        boolean majority = voters * 2 > votingSize;
        MajorityChange change = MajorityChange.NONE;
        if (inMajority && !majority) {
            change = LeaderRule.mayOnlyAwaitHellos(voters, withoutHello, votingSize)
                    ? MajorityChange.AWAITING_HELLOS : MajorityChange.LOST;
        }
        inMajority = majority;
        leading = leads;
        return change;
    }

    /** Whether a node that {@code leads} now, with its leadership {@code confirmed} or not, may decide. */
    Authority mayDecide(boolean leads, boolean confirmed) {
        boolean unconfirmedNow = leads && !confirmed && !unconfirmed;
        unconfirmed = leads && !confirmed;
        return new Authority(leads && confirmed, unconfirmedNow);
    }

    /** Any thread: whether the view held a majority of the voters at the last refresh. */
    boolean inMajority() {
        return inMajority;
    }

    /** Any thread: whether this node led at the last refresh. */
    boolean leading() {
        return leading;
    }
}
