package io.zaris.cluster;

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
    private final Map<Address, Long> lastHeardNanos = new ConcurrentHashMap<>();

    HeardFrom(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
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
            lastHeardNanos.put(sender, nanoTime.getAsLong());
        }
    }
}
