package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** When a connection's response buffer is lent, given back, kept by a reply, or not lent at all. */
@Tag("unit")
class LentResponseBufferTests {

    @Test
    void aBufferGivenBackAfterItsReplyWasWrittenIsLentAgainEmpty() {
        LentResponseBuffer loans = new LentResponseBuffer();
        loans.open();
        ByteBuf first = loans.take();
        first.writeLong(42);
        loans.written();

        loans.open();
        ByteBuf second = loans.take();
        assertThat(second).isSameAs(first);
        assertThat(second.readableBytes()).as("cleared for the next answer").isZero();
        assertThat(second.hasArray()).as("a heap buffer, as a GET's slice needs").isTrue();
    }

    @Test
    void aBufferKeptByAWaitingReplyIsNeverLentAgain() {
        LentResponseBuffer loans = new LentResponseBuffer();
        loans.open();
        ByteBuf waiting = loans.take();
        loans.kept();

        loans.open();
        ByteBuf next = loans.take();
        loans.written();
        assertThat(next).isNotSameAs(waiting);
        loans.open();
        assertThat(loans.take()).isSameAs(next);
    }

    @Test
    void nothingIsLentOutsideALoanOrTwiceInOne() {
        LentResponseBuffer loans = new LentResponseBuffer();
        assertThat(loans.take()).as("before any loan").isNull();
        loans.open();
        assertThat(loans.take()).isNotNull();
        assertThat(loans.take()).as("the same command's second call").isNull();
        loans.written();
        assertThat(loans.take()).as("after the loan closed").isNull();
    }

    @Test
    void anotherThreadIsNotLentTheBufferOfTheCommandRunningNow() throws InterruptedException {
        LentResponseBuffer loans = new LentResponseBuffer();
        loans.open();
        AtomicReference<ByteBuf> elsewhere = new AtomicReference<>();
        Thread continuation = new Thread(() -> elsewhere.set(loans.take()));
        continuation.start();
        continuation.join();
        assertThat(elsewhere.get()).isNull();
        assertThat(loans.take()).as("still there for the command itself").isNotNull();
    }

    @Test
    void aBufferGrownByALargeAnswerIsNotKept() {
        LentResponseBuffer loans = new LentResponseBuffer();
        loans.open();
        ByteBuf grown = loans.take();
        grown.writeZero(LentResponseBuffer.KEEP_AT_MOST_BYTES + 1);
        loans.written();

        loans.open();
        ByteBuf next = loans.take();
        assertThat(next).isNotSameAs(grown);
        assertThat(next.capacity()).isEqualTo(LentResponseBuffer.FIRST_BYTES);
    }
}
