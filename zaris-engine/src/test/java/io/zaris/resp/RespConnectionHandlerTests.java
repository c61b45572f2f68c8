package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The connection handler on Netty's in-memory channel: a command whose reply fails costs that command only, and
 * replies leave in command order with one flush per read batch or per drained run of late replies (counted by
 * an outbound handler between the connection handler and the channel).
 */
@Tag("unit")
class RespConnectionHandlerTests {

    /** A waiting reply's command is looked up as a blocking pop only when its name starts with a B. */
    @Test
    void everyBlockingPopIsACommandWhoseNameStartsWithB() {
        for (String name : RespConnectionHandler.BLOCKING_POPS) {
            assertThat(name).startsWith("b");
            assertThat(CommandTable.COMMANDS).containsKey(name);
        }
    }

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

    /** A command behind a waiting blocking pop is not even run until the pop is answered, as in Redis. */
    @Test
    void commandsBehindAWaitingBlockingPopRunOnlyAfterItIsAnswered() {
        CompletableFuture<RespReply> pop = new CompletableFuture<>();
        List<String> ran = new ArrayList<>();
        EmbeddedChannel channel = channel((command, session) -> {
            ran.add(word(command.get(0)));
            return word(command.get(0)).equalsIgnoreCase("BLPOP") ? pop : CompletableFuture.completedFuture(RespReply.integer(1));
        });
        channel.writeInbound(ascii("blpop q 0\r\nRPUSH q a\r\n"));
        assertThat(ran).as("RPUSH waits behind the pop").containsExactly("blpop");
        channel.writeInbound(ascii("LLEN q\r\n"));
        assertThat(ran).containsExactly("blpop");
        assertThat(written(channel)).isEmpty();
        pop.complete(RespReply.NULL_ARRAY);
        channel.runPendingTasks();
        assertThat(ran).containsExactly("blpop", "RPUSH", "LLEN");
        assertThat(written(channel)).isEqualTo("*-1\r\n:1\r\n:1\r\n");
    }

    /** The input a client sends behind a waiting blocking pop is bounded: past the bound the connection is closed. */
    @Test
    void tooMuchInputBehindAWaitingBlockingPopClosesTheConnection() {
        CompletableFuture<RespReply> pop = new CompletableFuture<>();
        EmbeddedChannel channel = channel((command, session) -> word(command.get(0)).equals("BLPOP") ? pop
                : CompletableFuture.completedFuture(RespReply.OK));
        channel.writeInbound(ascii("BLPOP q 0\r\n"));
        String ping = "PING\r\n".repeat(1024);
        for (int sent = 0; sent <= RespConnectionHandler.MAX_INPUT_BEHIND_BLOCKED_POP && channel.isOpen(); sent += ping.length()) {
            channel.writeInbound(ascii(ping));
        }
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void aPipelinedBatchGetsItsRepliesInOrderInOneWriteAndOneFlush() {
        WritesAndFlushes counted = new WritesAndFlushes();
        EmbeddedChannel channel = channel(counted, echo());
        StringBuilder commands = new StringBuilder();
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            commands.append("*2\r\n$4\r\nECHO\r\n$").append(Integer.toString(i).length()).append("\r\n").append(i).append("\r\n");
            expected.append('$').append(Integer.toString(i).length()).append("\r\n").append(i).append("\r\n");
        }
        counted.reset();
        channel.writeInbound(ascii(commands.toString()));
        assertThat(written(channel)).isEqualTo(expected.toString());
        assertThat(counted.writes).as("writes to the channel").isEqualTo(1);
        assertThat(counted.flushes).as("flushes").isEqualTo(1);
    }

    @Test
    void repliesOfABatchLargerThanTheWriteThresholdReachTheChannelBeforeTheBatchEndsAndAreFlushedOnce() {
        WritesAndFlushes counted = new WritesAndFlushes();
        String big = "x".repeat(10_000);
        EmbeddedChannel channel = channel(counted, (command, session) -> CompletableFuture.completedFuture(RespReply.bulk(big)));
        int commands = 20;
        counted.reset();
        channel.writeInbound(ascii("GET\r\n".repeat(commands)));
        assertThat(written(channel)).isEqualTo(("$10000\r\n" + big + "\r\n").repeat(commands));
        // 20 replies of 10 kB: handed over whenever 64 KiB are rendered (twice), the rest at the end of the batch.
        assertThat(counted.writes).isEqualTo(3);
        assertThat(counted.flushes).isEqualTo(1);
    }

    @Test
    void lateRepliesThatCompleteTogetherShareOneDrainAndOneFlushInCommandOrder() throws Exception {
        WritesAndFlushes counted = new WritesAndFlushes();
        List<CompletableFuture<RespReply>> late = new ArrayList<>();
        EmbeddedChannel channel = channel(counted, (command, session) -> {
            CompletableFuture<RespReply> reply = new CompletableFuture<>();
            late.add(reply);
            return reply;
        });
        channel.writeInbound(ascii("A\r\nB\r\nC\r\nD\r\n"));
        assertThat(written(channel)).isEmpty();
        counted.reset();
        // Completed off the event loop, last first, as replica acknowledgements may arrive.
        Thread completer = new Thread(() -> {
            for (int i = late.size() - 1; i >= 0; i--) {
                late.get(i).complete(RespReply.integer(i + 10));
            }
        });
        completer.start();
        completer.join();
        channel.runPendingTasks();
        assertThat(written(channel)).isEqualTo(":10\r\n:11\r\n:12\r\n:13\r\n");
        assertThat(counted.flushes).as("one drain, one flush").isEqualTo(1);
        assertThat(counted.writes).isEqualTo(1);
    }

    @Test
    void aMalformedFrameAfterGoodCommandsIsAnsweredAfterTheirRepliesWithAProtocolErrorAndClosesTheConnection() {
        WritesAndFlushes counted = new WritesAndFlushes();
        EmbeddedChannel channel = channel(counted, echo());
        counted.reset();
        channel.writeInbound(ascii("*2\r\n$4\r\nECHO\r\n$2\r\nok\r\n*1\r\n$x\r\n"));
        assertThat(written(channel)).isEqualTo("$2\r\nok\r\n-ERR Protocol error: invalid bulk length\r\n");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void aWrongCommandInABatchCostsThatCommandOnly() {
        EmbeddedChannel channel = channel(new WritesAndFlushes(), (command, session) -> word(command.get(0)).equals("BAD")
                ? CompletableFuture.completedFuture(RespReply.error("ERR unknown command 'BAD'"))
                : CompletableFuture.completedFuture(RespReply.OK));
        channel.writeInbound(ascii("OK\r\nBAD\r\nOK\r\n"));
        assertThat(written(channel)).isEqualTo("+OK\r\n-ERR unknown command 'BAD'\r\n+OK\r\n");
        assertThat(channel.isOpen()).isTrue();
    }

    /** Counts what reaches the channel from the connection handler. Event-loop confined, like the channel. */
    private static final class WritesAndFlushes extends ChannelOutboundHandlerAdapter {
        int writes;
        int flushes;

        void reset() {
            writes = 0;
            flushes = 0;
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
            writes++;
            super.write(ctx, msg, promise);
        }

        @Override
        public void flush(ChannelHandlerContext ctx) throws Exception {
            flushes++;
            super.flush(ctx);
        }
    }

    /**
     * Commands answered at once are lent one response buffer, reused command after command; a reply queued behind a
     * waiting one keeps the buffer it read its value from, so later commands cannot overwrite it before it is written.
     */
    @Test
    void aReplyRenderedAtOnceGivesBackItsLentBufferAndAQueuedReplyKeepsItsOwn() {
        CompletableFuture<RespReply> slow = new CompletableFuture<>();
        List<ByteBuf> lent = new ArrayList<>();
        EmbeddedChannel channel = channel((command, session) -> {
            if (word(command.get(0)).equals("SLOW")) {
                return slow;
            }
            // As a GET does: the engine writes its answer into the lent buffer and the reply is a slice of it.
            ByteBuf answer = session.responseBuffer.take();
            lent.add(answer);
            answer.writeBytes(command.get(1));
            return CompletableFuture.completedFuture(new RespReply.BufferBulk(answer.slice()));
        });

        channel.writeInbound(ascii("GET one\r\nGET two\r\nGET six\r\n"));
        assertThat(written(channel)).isEqualTo("$3\r\none\r\n$3\r\ntwo\r\n$3\r\nsix\r\n");
        assertThat(lent).hasSize(3);
        assertThat(lent.get(1)).as("given back after its reply was rendered").isSameAs(lent.get(0));
        assertThat(lent.get(2)).isSameAs(lent.get(0));

        lent.clear();
        channel.writeInbound(ascii("SLOW\r\nGET four\r\nGET five\r\n"));
        assertThat(written(channel)).as("both GETs wait behind SLOW").isEmpty();
        assertThat(lent.get(1)).as("the first GET's reply still reads its buffer").isNotSameAs(lent.get(0));
        slow.complete(RespReply.OK);
        channel.runPendingTasks();
        assertThat(written(channel)).isEqualTo("+OK\r\n$4\r\nfour\r\n$4\r\nfive\r\n");
    }

    /** A command's second engine call, and a call outside a command, allocate their own buffers. */
    @Test
    void aCommandIsLentOneBufferAndNothingIsLentBetweenCommands() {
        List<RespSession> sessions = new ArrayList<>();
        List<ByteBuf> taken = new ArrayList<>();
        EmbeddedChannel channel = channel((command, session) -> {
            sessions.add(session);
            taken.add(session.responseBuffer.take());
            taken.add(session.responseBuffer.take());
            return CompletableFuture.completedFuture(RespReply.OK);
        });
        channel.writeInbound(ascii("TWICE\r\n"));
        assertThat(written(channel)).isEqualTo("+OK\r\n");
        assertThat(taken.get(0)).isNotNull();
        assertThat(taken.get(1)).as("a second call of the same command").isNull();
        assertThat(sessions.get(0).responseBuffer.take()).as("between commands").isNull();
    }

    @Test
    void aPushWaitsBehindARepliesStillPendingAndGoesAtOnceOtherwise() {
        CompletableFuture<RespReply> slow = new CompletableFuture<>();
        List<RespSession> sessions = new ArrayList<>();
        EmbeddedChannel channel = channel((command, session) -> {
            sessions.add(session);
            return word(command.get(0)).equals("SLOW") ? slow : CompletableFuture.completedFuture(RespReply.bulk("v"));
        });
        channel.writeInbound(ascii("HELLO\r\n"));
        sessions.get(0).protocol = 3;
        assertThat(written(channel)).isEqualTo("$1\r\nv\r\n");

        sessions.get(0).pushes.accept(invalidate("a"));
        channel.runPendingTasks();
        assertThat(written(channel)).isEqualTo(">2\r\n$10\r\ninvalidate\r\n*1\r\n$1\r\na\r\n");

        channel.writeInbound(ascii("SLOW\r\nGET\r\n"));
        sessions.get(0).pushes.accept(invalidate("b"));
        channel.runPendingTasks();
        assertThat(written(channel)).as("the push of a change after GET ran waits behind GET's reply").isEmpty();
        slow.complete(RespReply.OK);
        channel.runPendingTasks();
        assertThat(written(channel)).isEqualTo("+OK\r\n$1\r\nv\r\n>2\r\n$10\r\ninvalidate\r\n*1\r\n$1\r\nb\r\n");
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void aConnectionWhosePushesPileUpIsClosedNotLetGrow() {
        List<RespSession> sessions = new ArrayList<>();
        EmbeddedChannel channel = channel((command, session) -> {
            sessions.add(session);
            return CompletableFuture.completedFuture(RespReply.OK);
        });
        channel.writeInbound(ascii("PING\r\n"));
        written(channel);
        for (int i = 0; i <= RespPushQueue.MAX_QUEUED; i++) {
            sessions.get(0).pushes.accept(invalidate("k" + i));
        }
        channel.runPendingTasks();
        assertThat(channel.isOpen()).as("one push past the bound closes the connection").isFalse();
    }

    private static RespReply.Push invalidate(String key) {
        return new RespReply.Push(List.of(RespReply.bulk("invalidate"), RespReply.array(List.of(RespReply.bulk(key)))));
    }

    private static RespConnectionHandler.Executor echo() {
        return (command, session) -> CompletableFuture.completedFuture(new RespReply.Bulk(command.get(command.size() - 1)));
    }

    private static EmbeddedChannel channel(RespConnectionHandler.Executor executor) {
        return channel(new WritesAndFlushes(), executor);
    }

    private static EmbeddedChannel channel(WritesAndFlushes counter, RespConnectionHandler.Executor executor) {
        return new EmbeddedChannel(counter, new RespConnectionHandler("test", RespLimits.defaults(), executor, 1,
                new AtomicInteger(), RespSecurity.none()));
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
