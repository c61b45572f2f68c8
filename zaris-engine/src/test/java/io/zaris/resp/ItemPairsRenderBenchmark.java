package io.zaris.resp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.zaris.model.SortedSetScores;
import io.zaris.protocol.MalformedRequestException;
import io.zaris.protocol.ResponseCodec;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * CPU time this thread spends writing one ZRANGE reply of ten member/score pairs from the engine's answer
 * ({@link RespReply.ItemPairs}) into a buffer of the RESP port's allocator, as {@code RespConnectionHandler} does:
 * the members and scores {@code bench/resp-alloc}'s ZRANGE reads ({@code element:00:0000000}, six-digit scores). Thread
 * CPU time, not wall time, so other work on the machine moves it less; still only a comparison within one run.
 *
 * <p>Usage: {@code ItemPairsRenderBenchmark [replies per round] [rounds]} (defaults 2,000,000 and 5); prints nanoseconds
 * of CPU per reply for RESP2 and RESP3 in each round.
 */
public final class ItemPairsRenderBenchmark {

    private ItemPairsRenderBenchmark() {
    }

    public static void main(String[] args) throws MalformedRequestException {
        int replies = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        List<byte[]> items = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            items.add(String.format(Locale.ROOT, "element:01:%07d", i).getBytes(StandardCharsets.US_ASCII));
            items.add(SortedSetScores.formatBytes(160_000 + i));
        }
        ByteBuf body = Unpooled.buffer();
        ResponseCodec.writeHashAnswer(body, 0, items);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        ByteBuf out = ByteBufAllocator.DEFAULT.directBuffer(64 * 1024);
        for (int round = 0; round < rounds; round++) {
            StringBuilder row = new StringBuilder("round " + (round + 1) + ":");
            for (int protocol : new int[] {2, 3}) {
                long start = threads.getCurrentThreadCpuTime();
                for (int i = 0; i < replies; i++) {
                    if (out.writableBytes() < 1024) {
                        out.clear();
                    }
                    RespWriter.write(RespReply.ItemPairs.of(body.duplicate(), true), protocol, out);
                }
                long nanos = threads.getCurrentThreadCpuTime() - start;
                row.append(String.format(Locale.ROOT, " RESP%d %.1f ns/reply", protocol, nanos / (double) replies));
            }
            System.out.println(row);
        }
        out.release();
    }
}
