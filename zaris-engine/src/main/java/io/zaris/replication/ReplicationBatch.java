package io.zaris.replication;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.zaris.model.Change;
import io.zaris.protocol.RequestCodec;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live changes a replication link gathers into one REPLICATE_BATCH frame before it leaves: one group per
 * ship (the changes of one segment, in revision order), one frame, one pending answer and one verdict per group.
 * Shipping each change as its own frame with its own answer cost more than the change: a node at replication
 * factor 2 spent 6–12 µs more per write than at factor 1 even when the change carried no value.
 *
 * <p>The groups are encoded as they join, because a change's value lives in an array its node reuses once the
 * request is handled. Bounded: a group joins only while the batch's body stays within {@link #MAX_BODY_BYTES} and
 * its values of {@link #LARGE_VALUE_BYTES} or more number at most {@link #MAX_LARGE_VALUES}; a group that does not
 * fit waits for the next batch, unless the batch is empty (a larger group travels alone, as a single REPLICATE
 * would). Not thread-safe: its link touches it under its batch lock only.
 *
 * <p>Each group's verdict goes to the {@link ReplicaLink.VerdictListener} that joined it, called once when the
 * batch is settled: no future per group, since every live write ships one group per replica.
 */
final class ReplicationBatch {

    private static final Logger log = LoggerFactory.getLogger(ReplicationBatch.class);

    /**
     * A batch's body stays within this many bytes (unless one group alone is larger), so that its frame is allocated
     * once at its full size and seldom straddles two of the replica's socket reads (such a frame is copied whole; see
     * {@code FrameDecoder}). Values of 8 KiB and more therefore travel one per batch, as they did before batches:
     * with 10 KiB values a bound of 32 KiB (three per batch) measured no gain and possibly a loss, while small
     * values gain most.
     */
    static final int MAX_BODY_BYTES = 16 * 1024;
    /**
     * Values a replica decodes into arrays it reuses (1 KiB and more); a batch holds at most
     * {@link #MAX_LARGE_VALUES} of them, the arrays a replica's I/O thread keeps, so none of its values is garbage.
     */
    static final int LARGE_VALUE_BYTES = 1024;
    static final int MAX_LARGE_VALUES = 8;

    private final ByteBuf frame;
    private final int bodyStart;
    private final long answerDeadlineNanos;
    /**
     * One per group, in the order the groups joined: the first group's here, the others' in a list made by the second
     * (a SYNC write sent alone, as every unpipelined one is, makes no list).
     */
    private ReplicaLink.VerdictListener firstVerdict;
    private List<ReplicaLink.VerdictListener> laterVerdicts;
    private int groups;
    private int largeValues;

    /** @param answerDeadlineNanos when the link stops waiting for the answer: the first group's deadline */
    ReplicationBatch(ByteBufAllocator allocator, long answerDeadlineNanos) {
        this.frame = allocator.buffer(RequestCodec.RESERVED_HEADER_BYTES + MAX_BODY_BYTES);
        this.answerDeadlineNanos = answerDeadlineNanos;
        RequestCodec.reserveHeader(frame);
        bodyStart = frame.writerIndex();
        frame.writeInt(0); // the group count, set when the batch closes
    }

    /** Whether a group of these changes may join: it fits within the bounds, or the batch is empty. */
    boolean accepts(List<Change> changes) {
        return groups == 0 || (bodyBytes() + groupBytes(changes) <= MAX_BODY_BYTES
                && largeValues + largeValues(changes) <= MAX_LARGE_VALUES);
    }

    /** The batch has reached a bound and should leave. */
    boolean isFull() {
        return bodyBytes() >= MAX_BODY_BYTES || largeValues >= MAX_LARGE_VALUES;
    }

    /** Encodes one group; {@code verdict} hears the replica's verdict on it when the batch's answer arrives, or fails. */
    void add(int partition, long epoch, int segment, List<Change> changes, ReplicaLink.VerdictListener verdict) {
        RequestCodec.writeReplicateGroup(frame, partition, epoch, segment, changes);
        largeValues += largeValues(changes);
        if (groups == 0) {
            firstVerdict = verdict;
        } else {
            if (laterVerdicts == null) {
                laterVerdicts = new ArrayList<>();
            }
            laterVerdicts.add(verdict);
        }
        groups++;
    }

    long answerDeadlineNanos() {
        return answerDeadlineNanos;
    }

    /** Finishes the body and hands the frame (header still reserved) to the caller, who sends or releases it. */
    ByteBuf close() {
        frame.setInt(bodyStart, groups);
        return frame;
    }

    /**
     * Completes each group's verdict with the replica's answer for it, in order; a group the answer does not
     * cover (a failed or short answer) is not known to be applied.
     */
    void settle(List<ReplicaLink.Verdict> answers) {
        for (int i = 0; i < groups; i++) {
            tell(listener(i), i < answers.size() ? answers.get(i) : ReplicaLink.Verdict.failed());
        }
    }

    /** The batch got no answer: every group gets {@code verdict}. */
    void settleFailed(ReplicaLink.Verdict verdict) {
        for (int i = 0; i < groups; i++) {
            tell(listener(i), verdict);
        }
    }

    private ReplicaLink.VerdictListener listener(int group) {
        return group == 0 ? firstVerdict : laterVerdicts.get(group - 1);
    }

    /** One listener that throws costs its own group only: the later groups' writes still hear their verdicts. */
    private static void tell(ReplicaLink.VerdictListener listener, ReplicaLink.Verdict verdict) {
        try {
            listener.onVerdict(verdict);
        } catch (RuntimeException e) {
            log.warn("a replication verdict's listener failed", e);
        }
    }

    /** The batch will not be sent (its link was closed from this side): frees its frame and fails every group. */
    void discard() {
        frame.release();
        settleFailed(ReplicaLink.Verdict.failed());
    }

    /** Bytes a group of these changes takes at most in a batch: for deciding whether it fits before encoding it. */
    private static long groupBytes(List<Change> changes) {
        long bytes = 20; // partition, epoch, segment, change count
        for (int i = 0; i < changes.size(); i++) { // indexed: no iterator per ship (the lists are random access)
            bytes += changes.get(i).sizeBytes(); // counts more than a change's encoding takes beyond key and value
        }
        return bytes;
    }

    private static int largeValues(List<Change> changes) {
        int large = 0;
        for (int i = 0; i < changes.size(); i++) {
            Change change = changes.get(i);
            if (change.hasValue() && change.value().length >= LARGE_VALUE_BYTES) {
                large++;
            }
        }
        return large;
    }

    private int bodyBytes() {
        return frame.writerIndex() - bodyStart;
    }
}
