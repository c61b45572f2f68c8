package io.zaris.cluster;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.jgroups.Address;
import org.jgroups.Message;
import org.jgroups.stack.Protocol;
import org.jgroups.util.MessageBatch;

/**
 * A protocol low in the stack, right below the failure detector, that notes when this member last received anything
 * from each other member, heartbeats included; it changes nothing it passes up. {@link MembershipGate} reads it to tell
 * whether this member still hears its coordinator.
 *
 * <p>Threads: JGroups' receiver threads write, the gate's threads read; one concurrent map entry per member.
 */
final class HeardFrom extends Protocol {

    private final LongSupplier nanoTime;
    private final long gapNanos;
    private final Map<Address, Long> lastHeardNanos = new ConcurrentHashMap<>();
    /** When the stretch began in which each member was heard with no silence of {@link #gapNanos} or more. */
    private final Map<Address, Long> heardSinceNanos = new ConcurrentHashMap<>();

    /**
     * @param nanoTime the node's monotonic clock
     * @param gap      a silence this long ends a stretch of hearing a member (see {@link #heardWithoutGapSince})
     */
    HeardFrom(LongSupplier nanoTime, Duration gap) {
        this.nanoTime = nanoTime;
        this.gapNanos = gap.toNanos();
    }

    /**
     * Since when this member has heard {@code member} with no silence of the gap or more, up to its last message;
     * {@link Long#MAX_VALUE}: never heard. A member on a flapping link starts a new stretch with every up-time.
     */
    long heardWithoutGapSince(Address member) {
        return member == null ? Long.MAX_VALUE : heardSinceNanos.getOrDefault(member, Long.MAX_VALUE);
    }

    /** When this member last received anything from {@code member}; {@link Long#MIN_VALUE}: never. */
    long lastHeard(Address member) {
        return member == null ? Long.MIN_VALUE : lastHeardNanos.getOrDefault(member, Long.MIN_VALUE);
    }

    @Override
    public Object up(Message message) {
        note(message.getSrc());
        return up_prot.up(message);
    }

    @Override
    public void up(MessageBatch batch) {
        note(batch.sender());
        up_prot.up(batch);
    }

    private void note(Address sender) {
        if (sender != null) {
            long now = nanoTime.getAsLong();
            Long previous = lastHeardNanos.put(sender, now);
            if (previous == null || now - previous >= gapNanos) {
                heardSinceNanos.put(sender, now); // written only when a silence ends, not per message
            }
        }
    }
}
