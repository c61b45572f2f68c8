package io.zaris.security;

import io.netty.channel.Channel;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies {@link OutboundLimits} to one channel: sets its water marks and, while the channel is unwritable,
 * keeps a timer that closes it after {@link OutboundLimits#maxUnwritable()}. Whether to keep reading is the
 * protocol handler's call ({@link Channel#isWritable()}); this class only bounds how long the node waits.
 *
 * <p>Confined to the channel's event loop (every method is called from a handler callback).
 */
public final class SlowReaderGuard {

    private static final Logger log = LoggerFactory.getLogger(SlowReaderGuard.class);

    private final String nodeId;
    private final String protocol;
    private final OutboundLimits limits;
    private final Runnable onClose;
    private ScheduledFuture<?> deadline;

    /**
     * @param onClose called on the event loop just before the guard closes a connection (e.g. to count it)
     */
    public SlowReaderGuard(String nodeId, String protocol, OutboundLimits limits, Runnable onClose) {
        this.nodeId = nodeId;
        this.protocol = protocol;
        this.limits = limits;
        this.onClose = onClose;
    }

    public void install(Channel channel) {
        channel.config().setWriteBufferWaterMark(
                new WriteBufferWaterMark(limits.lowWaterMarkBytes(), limits.highWaterMarkBytes()));
    }

    /** To be called from {@code channelWritabilityChanged}. */
    public void writabilityChanged(Channel channel) {
        if (channel.isWritable()) {
            if (deadline != null) {
                deadline.cancel(false);
                deadline = null;
            }
        } else if (deadline == null) {
            deadline = channel.eventLoop().schedule(() -> closeIfStillUnwritable(channel),
                    limits.maxUnwritable().toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    private void closeIfStillUnwritable(Channel channel) {
        deadline = null;
        if (channel.isWritable() || !channel.isActive()) {
            return;
        }
        log.warn("node {}: closing {} connection from {}: it has not read its replies for {} ms ({} bytes waiting)",
                nodeId, protocol, channel.remoteAddress(), limits.maxUnwritable().toMillis(),
                channel.bytesBeforeWritable() + limits.lowWaterMarkBytes());
        onClose.run();
        channel.close();
    }

    /** Cancels the timer when the channel goes away. */
    public void closed() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }
}
