package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zaris.model.KvStatus;
import io.zaris.protocol.ResponseCodec;
import io.zaris.time.FakeTime;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The waiting mechanics on a fake clock: the attempts themselves move time, the timer only runs them. */
@Tag("unit")
class MoveWaitsTests {

    private final FakeTime time = new FakeTime();

    @Test
    void anAnswerAtOnceIsReturnedAsItIs() {
        try (MoveWaits waits = new MoveWaits(time)) {
            CompletableFuture<ByteBuf> answer = CompletableFuture.completedFuture(payload(KvStatus.OK));
            assertThat(waits.run(() -> answer, MoveWaitsTests::refused)).isSameAs(answer);
            assertThat(waits.waiting()).isZero();
        }
    }

    @Test
    void aRefusedRequestRunsAgainUntilItIsAnswered() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        Supplier<CompletableFuture<ByteBuf>> attempt = () -> CompletableFuture.completedFuture(
                payload(attempts.incrementAndGet() < 4 ? KvStatus.MIGRATING : KvStatus.OK));
        try (MoveWaits waits = new MoveWaits(time)) {
            ByteBuf answer = waits.run(attempt, MoveWaitsTests::refused).get(10, TimeUnit.SECONDS);
            assertThat(status(answer)).isEqualTo(KvStatus.OK);
            assertThat(attempts).hasValue(4);
            assertThat(waits.waiting()).isZero();
        }
    }

    @Test
    void aLaterAnswerThatIsAWriteStillWaitingForReplicasIsPassedOn() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        CompletableFuture<ByteBuf> replicated = new CompletableFuture<>();
        Supplier<CompletableFuture<ByteBuf>> attempt = () -> attempts.incrementAndGet() == 1
                ? CompletableFuture.completedFuture(payload(KvStatus.OWNERSHIP_CHANGING)) : replicated;
        try (MoveWaits waits = new MoveWaits(time)) {
            CompletableFuture<ByteBuf> result = waits.run(attempt, MoveWaitsTests::refused);
            while (attempts.get() < 2) {
                Thread.onSpinWait();
            }
            assertThat(result).isNotDone();
            replicated.completeExceptionally(new IllegalStateException("not acknowledged"));
            assertThat(result).failsWithin(Duration.ofSeconds(10));
        }
    }

    @Test
    void pastTheBoundTheLastRefusalIsTheAnswer() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        Supplier<CompletableFuture<ByteBuf>> attempt = () -> {
            attempts.incrementAndGet();
            time.advance(Duration.ofSeconds(3));
            return CompletableFuture.completedFuture(payload(KvStatus.MIGRATING));
        };
        try (MoveWaits waits = new MoveWaits(time)) {
            ByteBuf answer = waits.run(attempt, MoveWaitsTests::refused).get(10, TimeUnit.SECONDS);
            assertThat(status(answer)).isEqualTo(KvStatus.MIGRATING);
            // The wait starts at the first refusal (3 s); refused again with 3, 6 and 9 s waited (under the 10 s bound:
            // one more), then with 12 s waited: answered.
            assertThat(attempts).hasValue(5);
            assertThat(waits.waiting()).isZero();
        }
    }

    private static ByteBuf payload(KvStatus status) {
        ByteBuf out = Unpooled.buffer();
        if (status.isAnswer()) {
            ResponseCodec.writeHeader(out, 7, status);
        } else {
            ResponseCodec.writeError(out, 7, status, "partition 3 is catching up");
        }
        return out;
    }

    private static KvStatus status(ByteBuf payload) {
        return KvStatus.fromCode(payload.getUnsignedByte(payload.readerIndex() + RespCommands.Answer.STATUS_OFFSET));
    }

    private static boolean refused(ByteBuf payload) {
        return MoveWaitPolicy.waitsOut(status(payload), false);
    }
}
