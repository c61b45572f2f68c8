package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The connection handler on Netty's in-memory channel: a command whose reply fails costs that command only. */
class RespConnectionHandlerTests {

    @Test
    void aReplyThatFailedAtOnceIsAnsweredAsAnErrorAndTheConnectionStaysUsable() {
        EmbeddedChannel channel = channel((command, session) -> word(command.get(0)).equals("BOOM")
                ? CompletableFuture.failedFuture(new IllegalStateException("exploded"))
                : CompletableFuture.completedFuture(RespReply.bulk(word(command.get(0)))));
        channel.writeInbound(ascii("BOOM\r\nAFTER\r\n"));
        assertThat(written(channel)).isEqualTo("-ERR internal error: java.lang.IllegalStateException: exploded\r\n"
                + "$5\r\nAFTER\r\n");
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void aReplyThatFailsLaterIsAnsweredInOrder() {
        CompletableFuture<RespReply> slow = new CompletableFuture<>();
        EmbeddedChannel channel = channel((command, session) -> word(command.get(0)).equals("SLOW") ? slow
                : CompletableFuture.completedFuture(RespReply.bulk(word(command.get(0)))));
        channel.writeInbound(ascii("SLOW\r\nNEXT\r\n"));
        assertThat(written(channel)).as("NEXT waits behind SLOW").isEmpty();
        slow.completeExceptionally(new IllegalStateException("late"));
        channel.runPendingTasks();
        assertThat(written(channel)).isEqualTo("-ERR internal error: java.lang.IllegalStateException: late\r\n$4\r\nNEXT\r\n");
    }

    private static EmbeddedChannel channel(RespConnectionHandler.Executor executor) {
        return new EmbeddedChannel(new RespConnectionHandler("test", RespLimits.defaults(), executor, 1, new AtomicInteger(),
                RespSecurity.none()));
    }

    private static String written(EmbeddedChannel channel) {
        StringBuilder text = new StringBuilder();
        for (ByteBuf out = channel.readOutbound(); out != null; out = channel.readOutbound()) {
            text.append(out.toString(StandardCharsets.ISO_8859_1));
            out.release();
        }
        return text.toString();
    }

    private static ByteBuf ascii(String text) {
        return Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII);
    }

    private static String word(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
