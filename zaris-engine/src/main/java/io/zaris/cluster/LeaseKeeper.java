package io.zaris.cluster;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * One node's lease bookkeeping, both sides of it, apart from the channel that carries the lease messages.
 *
 * <p>Member side: every node, the leader included, asks the coordinator of its view to confirm its owner lease
 * ({@link #renew}); a grant answering a request sent at {@code t} makes the lease hold until {@code t} plus the
 * lease ({@link #onGrant}; see {@link OwnerLease}). It answers the beats of its view's coordinator, but
 * switches to a different coordinator only under the rule of {@link #answersBeat}.
 *
 * <p>Leader side: the leader beats ({@link #beginBeat}); once a majority of the voters answered one beat, its
 * leader lease is confirmed as of that beat's send time ({@link #onBeatAnswer}), and only while that lease
 * holds may it decide ({@link #leadershipConfirmed}) and grant owner leases ({@link #grant}). The grants it
 * made tell it when a member's lease has surely run out ({@link #surelyLapsed}, {@link #lapsedWhileMember},
 * {@link #renewedWithinLease}). It refuses the requests of a member whose answers to its beats lag while a majority's
 * do not ({@link #promptness}), so a node on a congested link lapses instead of living on late grants.
 *
 * <p>Pure: it never reads a clock and never sends anything. Every method takes {@code now} (monotonic nanos
 * of the node's clock) and returns what to do: which request number to send, whether to answer a beat or
 * grant a request, whether a lease just expired or was just confirmed (the caller logs it).
 *
 * <p>Concurrency: owned by the cluster member's events thread. Every call is made there, one at a time, so
 * no field needs a lock or {@code volatile}. Other threads never call it; the member publishes
 * {@link #memberLeaseValidUntil()} through a volatile field of its own for the data path.
 *
 * <p>Without a lease (the in-JVM transport: nothing pauses one node of a single JVM) the owner lease always
 * holds, leadership needs no confirmation, and no member ever counts as lapsed; the message-driven methods
 * must not be called then.
 *
 * @param <A> how membership addresses a node: JGroups' address in the cluster member, plain values in tests
 */
final class LeaseKeeper<A> {

    /**
     * How long past its lease a member's partitions wait for it to renew before they fail over: a node whose
     * lease requests were merely late (a loaded machine) renews within it and keeps its partitions.
     */
    static final Duration LEASE_LAPSE_GRACE = Duration.ofSeconds(1);
    /**
     * How soon after a beat was sent a member's answer must arrive for the member to count as prompt, at most: a
     * sixth of the lease when that is shorter. A healthy link answers in milliseconds, a loaded two-core test machine
     * in tens; a link congested enough to hold writes back for seconds queues for seconds.
     */
    static final Duration PROMPT_ANSWER = Duration.ofMillis(500);
    /** How many of its own lease requests a node remembers; a grant answering an older one renews nothing. */
    static final int REMEMBERED_REQUESTS = 16;

    /** {@code null}: the transport needs no lease. */
    private final Duration lease;
    private final OwnerLease ownerLease;
    private final OwnerLease leaderLease;
    private final LeaderBeats beats = new LeaderBeats();

    // --- member side ---
    private final long[] requestSentNanos = new long[REMEMBERED_REQUESTS];
    private long requestSequence;
    /** Until when this node may act as an active owner; {@link Long#MAX_VALUE}: no lease. */
    private long validUntil;
    /** Whether the owner lease held at the previous renewal, so its expiry is reported once. */
    private boolean wasHeld;
    /**
     * When this node sent the oldest of its lease requests that no grant has answered since ({@link Long#MIN_VALUE}:
     * none outstanding), so it knows how long it has asked in vain (see {@link #coordinatorUnresponsive}).
     */
    private long unansweredSinceNanos = Long.MIN_VALUE;
    /** The coordinator of this node's view, which its lease requests go to ({@link #viewChanged}). */
    private A askedCoordinator;
    /** The coordinator whose beat this node last answered, and when (see {@link #answersBeat}). */
    private A beatLeader;
    private long beatAnsweredNanos;

    // --- leader side ---
    /**
     * While leading: node id → when this node last granted that node's owner lease. A node's lease runs from the
     * send time of its request, which precedes the grant, so it has surely run out one lease after the grant
     * recorded here. Forgotten when this node stops leading: another leader may have granted since.
     */
    private final Map<String, Long> grantedNanos = new HashMap<>();
    /** While leading: node id → when the current run of grants without a lapse between them began. */
    private final Map<String, Long> renewedSinceNanos = new HashMap<>();
    /**
     * When each member of the current view entered it (without leaving since). A member that came back (a healed
     * split keeps its address) may still show an old grant until its first request of this stay.
     */
    private final Map<A, Long> memberSinceNanos = new HashMap<>();
    /**
     * While leading: member → the send time of the latest beat it answered within {@link #promptAnswerNanos()}.
     * Members of the current view only (pruned at every view change); forgotten when this node stops leading.
     */
    private final Map<A, Long> promptBeatNanos = new HashMap<>();
    /** While leading: when this node sent its first beat since it (last) began to lead; {@code null}: none yet. */
    private Long beatingSinceNanos;
    /** The majority of the voters when this leader last beat; 0: it has not beaten since it began to lead. */
    private int lastBeatMajority;
    /**
     * While leading: node id → when this leader began refusing its lease requests because it lags (see
     * {@link #promptness}); removed by the next grant. Bounded by the map's nodes: only announced members ask.
     */
    private final Map<String, Long> refusingSinceNanos = new HashMap<>();

    private LeaseKeeper(Duration lease) {
        this.lease = lease;
        this.ownerLease = lease == null ? null : new OwnerLease(lease);
        this.leaderLease = lease == null ? null : new OwnerLease(lease);
        this.validUntil = lease == null ? Long.MAX_VALUE : Long.MIN_VALUE;
    }

    /** A keeper for a transport whose owners serve only within a lease of {@code lease} (positive). */
    static <A> LeaseKeeper<A> withLease(Duration lease) {
        if (lease == null) {
            throw new IllegalArgumentException("lease duration must be given; use withoutLease() for none");
        }
        return new LeaseKeeper<>(lease);
    }

    /** A keeper for a transport that needs no lease. */
    static <A> LeaseKeeper<A> withoutLease() {
        return new LeaseKeeper<>(null);
    }

    /** Whether this transport has leases at all. */
    boolean enabled() {
        return lease != null;
    }

    /** The lease duration; only when {@link #enabled()}. */
    Duration lease() {
        requireLease("lease");
        return lease;
    }

    // ---------------------------------------------------------------------------------------------- member side

    /** Until when (monotonic nanos) this node may act as an active owner; {@link Long#MAX_VALUE}: no lease. */
    long memberLeaseValidUntil() {
        return validUntil;
    }

    /** Whether an owner lease valid until {@code validUntilNanos} (as {@link #memberLeaseValidUntil()}) holds. */
    static boolean holds(long validUntilNanos, long nowNanos) {
        return validUntilNanos == Long.MAX_VALUE || OwnerLease.holds(validUntilNanos, nowNanos);
    }

    /**
     * What one renewal (every quarter lease, and at every view change) does: ask for a confirmation under
     * {@code requestNumber}, and report whether the lease ran out since the previous renewal.
     *
     * @param unconfirmedForMillis when it expired: how long no leader of a majority has confirmed it
     */
    record Renewal(long requestNumber, boolean expired, long unconfirmedForMillis) {
    }

    /** A lease request is sent at {@code now}; returns its number and whether the lease just expired. */
    Renewal renew(long now) {
        requireLease("renew");
        boolean held = OwnerLease.holds(validUntil, now);
        boolean expired = wasHeld && !held;
        long unconfirmedForMillis = expired ? (now - validUntil) / 1_000_000 + lease.toMillis() : 0;
        wasHeld = held;
        long sequence = ++requestSequence;
        requestSentNanos[(int) (sequence % REMEMBERED_REQUESTS)] = now;
        if (unansweredSinceNanos == Long.MIN_VALUE) {
            unansweredSinceNanos = now;
        }
        return new Renewal(sequence, expired, unconfirmedForMillis);
    }

    /**
     * A grant from the coordinator of this node's view answered request {@code number}; {@code selfGranted}: this
     * node is that coordinator. Grants for requests older than the last {@link #REMEMBERED_REQUESTS} (or never
     * sent) are ignored. Returns whether this grant made a lease hold that did not hold at {@code now}.
     */
    boolean onGrant(long number, boolean selfGranted, long now) {
        requireLease("onGrant");
        if (number <= requestSequence - REMEMBERED_REQUESTS || number > requestSequence) {
            return false;
        }
        boolean held = holds(validUntil, now);
        unansweredSinceNanos = Long.MIN_VALUE;
        ownerLease.confirmedAt(requestSentNanos[(int) (number % REMEMBERED_REQUESTS)]);
        // A leader's grant to itself lasts no longer than its leader lease: a cut-off leader stops serving one
        // lease after the last beat a majority answered, before the others can exclude it and promote, rather
        // than one more lease after that.
        validUntil = selfGranted ? Math.min(ownerLease.validUntil(), leaderLease.validUntil()) : ownerLease.validUntil();
        return !held && holds(validUntil, now);
    }

    /**
     * Whether the coordinator this node asks for its lease has stopped answering it: the lease held once and ran out
     * {@link #LEASE_LAPSE_GRACE} ago or more, and every request this node sent for a whole lease went unanswered. A
     * node back from a pause has asked only since it woke, so it waits a lease for the answer a live leader gives.
     * Always {@code false} without a lease.
     */
    boolean coordinatorUnresponsive(long now) {
        return lease != null && validUntil != Long.MIN_VALUE && now - validUntil >= LEASE_LAPSE_GRACE.toNanos()
                && unansweredSinceNanos != Long.MIN_VALUE && now - unansweredSinceNanos >= lease.toNanos();
    }

    /**
     * A beat from {@code coordinator}, the coordinator of this node's view, arrived at {@code now}; returns whether
     * to answer it (and then records the answer). While the coordinator this member last confirmed is still in
     * its view ({@code inView}), it confirms a different one only once a full lease has passed, so two leaders
     * never hold a majority-confirmed lease at once (seen in a chaos run while views were merging). A previous
     * leader that left the view (a graceful stop, a crash, a pause or split long enough for membership to exclude
     * it) cannot be deciding: its own lease ran out before membership could exclude it, so the new coordinator is
     * confirmed at once.
     */
    boolean answersBeat(A coordinator, Predicate<A> inView, long now) {
        requireLease("answersBeat");
        boolean answers = beatLeader == null || beatLeader.equals(coordinator) || !inView.test(beatLeader)
                || now - beatAnsweredNanos >= lease.toNanos();
        if (answers) {
            beatLeader = coordinator;
            beatAnsweredNanos = now;
        }
        return answers;
    }

    // ---------------------------------------------------------------------------------------------- leader side

    /**
     * Starts a beat sent at {@code now} that {@code majority} answers confirm (a majority of the voters when it is
     * sent); returns its round number.
     */
    long beginBeat(long now, int majority) {
        requireLease("beginBeat");
        if (beatingSinceNanos == null) {
            beatingSinceNanos = now;
        }
        lastBeatMajority = majority;
        return beats.begin(now, majority);
    }

    /**
     * A beat's answers completed a majority: the leader lease is confirmed as of {@code sentNanos}, the beat's send
     * time (majority checks waiting on a beat sent after them are proven by it).
     *
     * @param leadershipJustConfirmed the leader lease did not hold before this answer: a new leader's first
     *                                confirmation, or one after a lapse
     */
    record BeatQuorum(long sentNanos, boolean leadershipJustConfirmed) {
    }

    /**
     * {@code member}, of this leader's view, answered beat {@code round} at {@code now} (the leader answers its own
     * beats too); returns the quorum when this answer completes a majority, else {@code null}. An answer to a beat
     * too old to be remembered counts for nothing.
     */
    BeatQuorum onBeatAnswer(long round, A member, long now) {
        requireLease("onBeatAnswer");
        Long beatSent = beats.sentAt(round);
        if (beatSent != null && now - beatSent <= promptAnswerNanos() && memberSinceNanos.containsKey(member)) {
            promptBeatNanos.merge(member, beatSent, Math::max);
        }
        Long sent = beats.answer(round, member);
        if (sent == null) {
            return null;
        }
        long lapsedAt = leaderLease.validUntil();
        boolean wasConfirmed = OwnerLease.holds(lapsedAt, now);
        leaderLease.confirmedAt(sent);
        boolean justConfirmed = !wasConfirmed && OwnerLease.holds(leaderLease.validUntil(), now);
        if (justConfirmed && lapsedAt != Long.MIN_VALUE && sent - lapsedAt >= lease.toNanos()) {
            // Unconfirmed for a lease or more (paused, or cut off): long enough for the members to have followed
            // another leader, which granted leases this node never saw. Its own older grants no longer tell who
            // lapsed: judged by them, a leader back from a pause suspended every member the interim leader kept.
            notLeading();
        }
        return new BeatQuorum(sent, justConfirmed);
    }

    /**
     * Whether a majority confirmed this node's leadership within the lease (always, without a lease). Being the
     * coordinator of a majority view is not enough to decide: a node resumed from a pause still holds its old
     * view in which it was coordinator, while the others moved on with a new leader. Only a leader whose beats a
     * majority answered within the lease (members answer only their own view's coordinator) decides, so two
     * leaders never publish conflicting epochs.
     */
    boolean leadershipConfirmed(long now) {
        return lease == null || OwnerLease.holds(leaderLease.validUntil(), now);
    }

    /**
     * This leader received a lease request at {@code now} from a member of its view, known as {@code nodeId}
     * ({@code null}: it has not announced itself yet); returns whether to grant it, which it does only while its
     * own leadership is confirmed, and records the grant.
     */
    boolean grant(String nodeId, long now) {
        requireLease("grant");
        if (!leadershipConfirmed(now)) {
            return false;
        }
        if (nodeId != null) {
            refusingSinceNanos.remove(nodeId);
            Long previous = grantedNanos.put(nodeId, now);
            if (previous == null || now - previous >= lease.toNanos()) {
                renewedSinceNanos.put(nodeId, now); // its lease had run out (or was never granted here): a new run
            }
        }
        return true;
    }

    /** Whether a lease request is to be granted as far as the asking member's link goes; see {@link #promptness}. */
    enum Promptness {
        /** Nothing speaks against it. */
        PROMPT,
        /** Refuse it: the member lags, and this is the first request refused since its last grant (log it). */
        STARTS_LAGGING,
        /** Refuse it: the member still lags. */
        LAGGING
    }

    /**
     * Whether to refuse the lease request of {@code nodeId} (at membership address {@code member}) at {@code now}
     * because its link lags, and records a refusal. A member lags when, for {@link #lagWindowNanos()} since it
     * entered the view and since this leader began beating, it answered none of this leader's beats within
     * {@link #promptAnswerNanos()}, while at least {@code majority} members of the view (this leader among them,
     * which answers its own beats at once) did. A congested link delivers some requests late rather than none:
     * granting them kept such a node's lease, and so its partitions and every SYNC write it replicates, from ever
     * lapsing (a CI run's keys went 14.7 s without a write). Refused, its lease runs out within a lease of the last
     * grant and it is suspended like a silent node ({@link #lapsedWhileMember}). When most members lag, the fault is
     * more likely this leader's own link or machine, and nobody is refused. A member not yet announced
     * ({@code nodeId} null) is never refused.
     */
    Promptness promptness(String nodeId, A member, int majority, long now) {
        requireLease("promptness");
        if (nodeId == null || !lagsBehindMajority(member, majority, now)) {
            return Promptness.PROMPT;
        }
        return refusingSinceNanos.putIfAbsent(nodeId, now) == null ? Promptness.STARTS_LAGGING : Promptness.LAGGING;
    }

    private boolean lagsBehindMajority(A member, int majority, long now) {
        if (!lags(member, now)) {
            return false;
        }
        int prompt = 0;
        for (A other : memberSinceNanos.keySet()) {
            if (!lags(other, now)) {
                prompt++;
            }
        }
        return prompt >= majority;
    }

    private boolean lags(A member, long now) {
        Long since = memberSinceNanos.get(member);
        if (since == null || beatingSinceNanos == null) {
            return false;
        }
        long window = lagWindowNanos();
        Long prompt = promptBeatNanos.get(member);
        return now - Math.max(since, beatingSinceNanos) >= window && (prompt == null || now - prompt >= window);
    }

    /** See {@link #PROMPT_ANSWER}. */
    long promptAnswerNanos() {
        return Math.min(PROMPT_ANSWER.toNanos(), lease.toNanos() / 6);
    }

    /**
     * How long a member may go without a prompt answer before it lags: half a lease (two beats, so one answer lost
     * or late is forgiven) and the prompt bound of the beat sent last in it.
     */
    long lagWindowNanos() {
        return lease.toNanos() / 2 + promptAnswerNanos();
    }

    /**
     * Whether {@code node}'s owner lease has surely run out because this leader granted it last more than a lease
     * ago. {@code false} when that is not known (no lease on this transport, or no grant from this leader: the node
     * may hold one from a previous leader).
     */
    boolean surelyLapsed(String node, long now) {
        Long granted = grantedNanos.get(node);
        return lease != null && granted != null && now - granted >= lease.toNanos();
    }

    /**
     * Whether this leader's grants to {@code node} have run without a lapse for a whole lease, the last of them within
     * half a lease (a member asks every quarter lease): a node on a flapping link renews in each short up-time and
     * loses its lease in the next outage, so it is resumed only when its link has held for this long (see the
     * failover coordinator's suspension). Counting up to {@code now} instead of up to the last grant would call a
     * node steady a lease after a short up-time began, while its next outage was already seconds old.
     */
    boolean renewedSteadily(String node, long now) {
        Long since = renewedSinceNanos.get(node);
        Long granted = grantedNanos.get(node);
        return lease != null && since != null && granted != null && granted - since >= lease.toNanos()
                && now - granted < lease.toNanos() / 2;
    }

    /** Whether this leader confirmed {@code node}'s lease within the last lease. */
    boolean renewedWithinLease(String node, long now) {
        Long granted = grantedNanos.get(node);
        return lease != null && granted != null && now - granted < lease.toNanos();
    }

    /**
     * Whether {@code node} (a member at membership address {@code address}, {@code null} if it has none), a member
     * for at least a lease and {@link #LEASE_LAPSE_GRACE} more, has had no grant from this leader for as long, so
     * it has surely served nothing for that grace (for a lease, without the grace, when this leader refused its
     * requests since the last grant or would refuse them now: see {@link #promptness}), while a majority still answers this leader (see the failover
     * coordinator). {@code false} when this leader never granted it a lease.
     */
    boolean lapsedWhileMember(String node, A address, long now) {
        Long granted = grantedNanos.get(node);
        if (lease == null || granted == null) {
            return false;
        }
        // The grace waits for a renewal that was merely late; a node this leader has refused since its last grant,
        // or would refuse now, gets none, so its lease has surely run out a lease after that grant.
        boolean refused = refusingSinceNanos.containsKey(node)
                || (address != null && lastBeatMajority > 0 && lagsBehindMajority(address, lastBeatMajority, now));
        long patience = refused ? lease.toNanos() : lease.plus(LEASE_LAPSE_GRACE).toNanos();
        Long since = address == null ? null : memberSinceNanos.get(address);
        // and a majority answered a beat this leader sent after that: a leader cut off from the others sees every
        // member lapse, but no majority answers it, so it suspends nobody
        long majorityConfirmedAt = leaderLease.validUntil() - lease.toNanos();
        return since != null && now - since >= patience && now - granted >= patience
                && leaderLease.validUntil() != Long.MIN_VALUE && majorityConfirmedAt - (granted + patience) >= 0;
    }

    /** A membership view with {@code members} was installed at {@code now}: who entered it when. */
    void viewChanged(Collection<A> members, long now) {
        A coordinator = members.isEmpty() ? null : members.iterator().next();
        if (coordinator != null && !coordinator.equals(askedCoordinator)) {
            // a new coordinator is asked from the next request on: the silence of the previous one is not its own
            askedCoordinator = coordinator;
            unansweredSinceNanos = Long.MIN_VALUE;
        }
        memberSinceNanos.keySet().retainAll(members);
        promptBeatNanos.keySet().retainAll(members);
        for (A member : members) {
            memberSinceNanos.putIfAbsent(member, now);
        }
    }

    /** This node does not lead (any more): its grants are forgotten, since another leader may grant from now on. */
    void notLeading() {
        grantedNanos.clear();
        renewedSinceNanos.clear();
        refusingSinceNanos.clear();
        promptBeatNanos.clear();
        beatingSinceNanos = null;
        lastBeatMajority = 0;
    }

    private void requireLease(String operation) {
        if (lease == null) {
            throw new IllegalStateException(operation + " needs an owner lease, and this transport has none");
        }
    }
}
