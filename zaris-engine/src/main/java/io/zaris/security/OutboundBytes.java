package io.zaris.security;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOutboundBuffer;

/** Measures what a set of connections has queued for writing. */
public final class OutboundBytes {

    private OutboundBytes() {
    }

    /**
     * Sum of bytes written to the channels but not yet taken by their sockets. Safe from any thread: each
     * buffer's total is a volatile counter, so the sum is a moment's estimate, not a snapshot.
     */
    public static long pending(Iterable<Channel> channels) {
        long total = 0;
        for (Channel channel : channels) {
            ChannelOutboundBuffer buffer = channel.unsafe().outboundBuffer();
            if (buffer != null) {
                total += buffer.totalPendingWriteBytes();
            }
        }
        return total;
    }
}
