package io.zaris.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Flushes asked for while one read is handled run once, when it ends; outside a read at once. */
@Tag("unit")
class ReadBurstTests {

    @Test
    void flushOutsideABurstRunsAtOnce() {
        AtomicInteger runs = new AtomicInteger();
        ReadBurst.flushAtEnd(runs::incrementAndGet);
        assertThat(runs).hasValue(1);
        assertThat(ReadBurst.deferredCount()).isZero();
    }

    @Test
    void flushAskedForManyTimesInABurstRunsOnceWhenItCloses() {
        AtomicInteger runs = new AtomicInteger();
        Runnable flush = runs::incrementAndGet;
        ReadBurst burst = ReadBurst.open();
        try {
            for (int i = 0; i < 16; i++) {
                ReadBurst.flushAtEnd(flush);
            }
            assertThat(runs).hasValue(0);
        } finally {
            burst.close();
        }
        assertThat(runs).hasValue(1);
        assertThat(ReadBurst.deferredCount()).isZero();
    }

    @Test
    void distinctFlushesEachRunOnceInTheOrderFirstAskedFor() {
        List<String> ran = new ArrayList<>();
        Runnable first = () -> ran.add("first");
        Runnable second = () -> ran.add("second");
        ReadBurst burst = ReadBurst.open();
        ReadBurst.flushAtEnd(first);
        ReadBurst.flushAtEnd(second);
        ReadBurst.flushAtEnd(first);
        burst.close();
        assertThat(ran).containsExactly("first", "second");
    }

    @Test
    void nestedBurstFlushesOnlyWhenTheOutermostCloses() {
        AtomicInteger runs = new AtomicInteger();
        ReadBurst outer = ReadBurst.open();
        ReadBurst inner = ReadBurst.open();
        ReadBurst.flushAtEnd(runs::incrementAndGet);
        inner.close();
        assertThat(runs).hasValue(0);
        outer.close();
        assertThat(runs).hasValue(1);
    }

    @Test
    void aFailingFlushDoesNotKeepTheOthersFromRunning() {
        AtomicInteger runs = new AtomicInteger();
        ReadBurst burst = ReadBurst.open();
        ReadBurst.flushAtEnd(() -> {
            throw new IllegalStateException("link closed");
        });
        ReadBurst.flushAtEnd(runs::incrementAndGet);
        assertThatThrownBy(burst::close).isInstanceOf(IllegalStateException.class).hasMessage("link closed");
        assertThat(runs).hasValue(1);
        assertThat(ReadBurst.deferredCount()).isZero();
        ReadBurst.flushAtEnd(runs::incrementAndGet); // the burst is closed: at once again
        assertThat(runs).hasValue(2);
    }

    @Test
    void closingWithoutAnOpenBurstIsRefused() {
        ReadBurst burst = ReadBurst.open();
        burst.close();
        assertThatThrownBy(burst::close).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no read burst is open");
    }

    @Test
    void framesOfOneReadShareOneFlushMadeAfterTheLastIsHandled() {
        AtomicInteger runs = new AtomicInteger();
        List<Integer> runsSeenByFrames = new ArrayList<>();
        Runnable flush = runs::incrementAndGet;
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(1024), new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ((ByteBuf) msg).release();
                ReadBurst.flushAtEnd(flush); // as a SYNC write asks its replication link
                runsSeenByFrames.add(runs.get());
            }
        });
        ByteBuf read = Unpooled.buffer();
        for (int i = 0; i < 3; i++) {
            read.writeInt(1).writeByte(i);
        }
        channel.writeInbound(read);
        assertThat(runsSeenByFrames).containsExactly(0, 0, 0);
        assertThat(runs).hasValue(1);
        channel.writeInbound(Unpooled.buffer().writeInt(1).writeByte(9));
        assertThat(runs).hasValue(2);
        channel.finishAndReleaseAll();
    }
}
