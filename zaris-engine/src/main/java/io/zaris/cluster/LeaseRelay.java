package io.zaris.cluster;

import io.zaris.model.ClusterView;
import java.util.HashMap;
import java.util.Map;

/**
 * The lease messages of one node, both sides: what a renewal sends, and how each lease message that arrives is
 * answered. The rules of the leases live in its {@link LeaseKeeper}; this class decides who may speak (only the
 * coordinator's beats and grants count, only members of the leader's view are answered) and turns the keeper's
 * answers into messages, which it hands to its {@link Effects} with everything else the member must do.
 *
 * <ul>
 *   <li>{@code BEAT} from the coordinator: answered ({@code BEAT_ACK}) when the keeper says so.</li>
 *   <li>{@code BEAT_ACK}, leading, from a member of the view: counted; a majority confirms the leadership (the
 *       member then runs its failover round at once, {@link Effects#leadershipConfirmed}) and proves the majority
 *       checks held.</li>
 *   <li>{@code MAJORITY_CHECK}, leading, from a member: held, and a beat sent at once to prove it.</li>
 *   <li>{@code MAJORITY_CONFIRMED}: completes this node's checks when it comes from the coordinator.</li>
 *   <li>{@code LEASE_REQUEST}, leading, from a member: granted while the leadership is confirmed, unless the member
 *       lags ({@link LeaseKeeper#promptness}: then refused, and the first refusal reported); otherwise a beat
 *       at once, so a member that installed this leader's view late confirms it now, not a quarter lease later, and
 *       the request is kept: the answer that confirms the leadership grants it then, instead of the member's next
 *       request a quarter lease later (measured: a new leader's members, itself included, served again about a
 *       second after it was confirmed).</li>
 *   <li>{@code LEASE_GRANT}: from a leader holding a newer map, a sign this node missed a view
 *       ({@link Effects#newerMapHeld}); from the coordinator otherwise, the member's lease.</li>
 * </ul>
 *
 * <p>Pure apart from its effects: it reads no clock (every event comes with {@code now}, monotonic nanos) and knows
 * no channel.
 *
 * <p>Concurrency: not thread-safe; owned by the cluster member's events thread, like its keeper and its majority
 * checks, which it holds.
 *
 * @param <A> how membership addresses a node
 */
final class LeaseRelay<A> {

    /** What the relay asks of its member: messages to send, and the events the member acts on or logs. */
    interface Effects<A> extends MajorityCheckRelay.Outbox<A> {

        /** Sends one encoded cluster message to every member. */
        void broadcast(byte[] message);

        /** A majority just confirmed this node's leadership (its first confirmation, or one after a lapse). */
        void leadershipConfirmed();

        /** The leader granted a lease for a newer map than this node holds: it missed a view. */
        void newerMapHeld();

        /**
         * The coordinator granted this node's lease: it now holds until {@code validUntil} (monotonic nanos);
         * {@code justConfirmed}: it did not hold before this grant.
         */
        void leaseGranted(long validUntil, boolean justConfirmed);

        /**
         * Leading: this node refused {@code nodeId}'s lease request because its answers to the beats lag while a
         * majority's do not ({@link LeaseKeeper#promptness}); called for the first refusal since its last grant.
         */
        void leaseRefused(String nodeId);
    }

    /**
     * Where the node stands when an event arrives: its own address ({@code null}: not connected), its membership
     * view, the cluster view it holds ({@code null}: none yet) and the configured cluster size.
     */
    record Seat<A>(A self, MembershipRoster<A> roster, ClusterView held, int clusterSize) {

        boolean leading() {
            return roster.leads(self, held, clusterSize);
        }

        /** How many answers to a beat sent now confirm the leadership. */
        int majority() {
            return MembershipRoster.votingSize(held, clusterSize) / 2 + 1;
        }
    }

    private final LeaseKeeper<A> keeper;
    private final MajorityCheckRelay<A> majorityChecks;
    private final Effects<A> effects;
    /**
     * Leading but not yet confirmed: member → its latest lease request, answered once a majority confirms the
     * leadership (see {@link #grantAskedBeforeConfirmation}). At most one entry per member of the view.
     */
    private final Map<A, AskedAt> askedBeforeConfirmation = new HashMap<>();

    /** A lease request, by number, and when it arrived (monotonic nanos). */
    private record AskedAt(long number, long arrivedNanos) {
    }

    LeaseRelay(LeaseKeeper<A> keeper, Effects<A> effects) {
        this.keeper = keeper;
        this.effects = effects;
        this.majorityChecks = new MajorityCheckRelay<>(effects);
    }

    LeaseKeeper<A> keeper() {
        return keeper;
    }

    MajorityCheckRelay<A> majorityChecks() {
        return majorityChecks;
    }

    /**
     * Every quarter lease and at every view change (only with a lease and a membership view): the leader beats,
     * and every node, the leader included, asks the coordinator to confirm its lease. Returns the keeper's renewal
     * (whether the lease just expired is the caller's to log).
     */
    LeaseKeeper.Renewal renew(Seat<A> seat, long now) {
        LeaseKeeper.Renewal renewal = keeper.renew(now);
        if (seat.leading()) {
            beat(seat, now);
        }
        effects.send(seat.roster().coordinator(),
                ClusterMessages.encodeLease(ClusterMessages.LEASE_REQUEST, renewal.requestNumber()));
        return renewal;
    }

    /** A lease message from {@code source} arrived at {@code now}; ignored without a lease or a membership view. */
    void onMessage(A source, ClusterMessages.LeaseMessage message, Seat<A> seat, long now) {
        MembershipRoster<A> roster = seat.roster();
        if (!keeper.enabled() || !roster.hasView()) {
            return;
        }
        long number = message.number();
        // only members of the leader's view count: an excluded node's messages arrive all the same
        boolean fromMemberToLeader = roster.contains(source) && seat.leading();
        switch (message.type()) {
            case ClusterMessages.BEAT -> {
                if (source.equals(roster.coordinator()) && keeper.answersBeat(source, roster::contains, now)) {
                    effects.send(source, ClusterMessages.encodeLease(ClusterMessages.BEAT_ACK, number));
                }
            }
            case ClusterMessages.BEAT_ACK -> {
                LeaseKeeper.BeatQuorum quorum = fromMemberToLeader ? keeper.onBeatAnswer(number, source, now) : null;
                if (quorum != null) {
                    if (quorum.leadershipJustConfirmed()) {
                        grantAskedBeforeConfirmation(seat, now);
                        effects.leadershipConfirmed();
                    }
                    majorityChecks.onBeatQuorum(quorum.sentNanos());
                }
            }
            case ClusterMessages.MAJORITY_CHECK -> {
                if (fromMemberToLeader) {
                    majorityChecks.onCheck(source, number, now);
                    // a beat sent now, after the check arrived, is what can prove it; waiting for the next tick
                    // would hold the asking write back for up to a quarter lease
                    beat(seat, now);
                }
            }
            case ClusterMessages.MAJORITY_CONFIRMED -> majorityChecks.onConfirmed(source, roster.coordinator(), number);
            case ClusterMessages.LEASE_REQUEST -> {
                if (fromMemberToLeader && !answerLeaseRequest(source, number, seat, now)) {
                    askedBeforeConfirmation.put(source, new AskedAt(number, now));
                    // A member asks as soon as it installs this leader's view, which it may have held back a while
                    // (MembershipGate) and so missed the beat sent at the view change: a beat now lets its answer
                    // confirm this leadership at once instead of at the next tick, a quarter lease later.
                    beat(seat, now);
                }
            }
            case ClusterMessages.LEASE_GRANT -> onGrant(source, message, seat, now);
            default -> {
            }
        }
    }

    /**
     * Answers {@code source}'s lease request {@code number}: grants it, or refuses it because the member lags. Returns
     * {@code false} only when it could not be answered because this leadership is not confirmed yet.
     */
    private boolean answerLeaseRequest(A source, long number, Seat<A> seat, long now) {
        if (!keeper.leadershipConfirmed(now)) {
            return false;
        }
        ClusterMessages.NodeHello hello = seat.roster().hello(source);
        String nodeId = hello == null ? null : hello.nodeId();
        LeaseKeeper.Promptness promptness = keeper.promptness(nodeId, source, seat.majority(), now);
        if (promptness == LeaseKeeper.Promptness.STARTS_LAGGING) {
            effects.leaseRefused(nodeId);
        } else if (promptness == LeaseKeeper.Promptness.PROMPT && keeper.grant(nodeId, now)) {
            ClusterView held = seat.held();
            effects.send(source, ClusterMessages.encodeGrant(number, held == null ? 0 : held.partitionMap().version()));
        }
        return true;
    }

    /**
     * The leadership was just confirmed: the requests that arrived within the last quarter lease (a member asks that
     * often, so an older one had a successor or its member is silent) are answered now. A grant made later than its
     * request was sent is safe: the member's lease runs from its request's send time, and the grant time this leader
     * records for it is later than that, as for any request that arrives late.
     */
    private void grantAskedBeforeConfirmation(Seat<A> seat, long now) {
        Map<A, AskedAt> asked = new HashMap<>(askedBeforeConfirmation);
        askedBeforeConfirmation.clear();
        long recent = keeper.lease().toNanos() / 4;
        asked.forEach((member, request) -> {
            if (seat.roster().contains(member) && now - request.arrivedNanos() < recent) {
                answerLeaseRequest(member, request.number(), seat, now);
            }
        });
    }

    private void onGrant(A source, ClusterMessages.LeaseMessage message, Seat<A> seat, long now) {
        ClusterView held = seat.held();
        if (held != null && message.mapVersion() > held.partitionMap().version()) {
            // The leader holds a newer map: this node may have missed a view that moved its partitions away (it was
            // suspended while its link was down, and no membership change re-broadcast views since). Serving on its
            // old view would answer reads of partitions another node now owns.
            effects.newerMapHeld();
            return;
        }
        if (source.equals(seat.roster().coordinator())) {
            boolean confirmed = keeper.onGrant(message.number(), source.equals(seat.self()), now);
            effects.leaseGranted(keeper.memberLeaseValidUntil(), confirmed);
        }
    }

    private void beat(Seat<A> seat, long now) {
        effects.broadcast(ClusterMessages.encodeLease(ClusterMessages.BEAT, keeper.beginBeat(now, seat.majority())));
    }
}
