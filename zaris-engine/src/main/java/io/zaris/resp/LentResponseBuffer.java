package io.zaris.resp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * The engine response buffer a RESP connection lends to the command it runs, so that a command answered at once (a
 * GET, an HGET, a ZRANGE: the reads) does not allocate a buffer of its own: the engine writes its answer into the
 * lent buffer, the reply reads from it (a GET's value is a slice of it), and once the reply has been rendered into the
 * connection's output the buffer is cleared for the next command.
 *
 * <p><b>Who holds the buffer.</b> {@link RespConnectionHandler} opens a loan before it runs a command ({@link #open})
 * and closes it after: {@link #written} when the command's reply was rendered at once (done, and no earlier reply
 * waiting), so nothing refers to the buffer any more and it is kept for the next command; {@link #kept} otherwise (a
 * SYNC write waiting for its replica, a reply queued behind one), when the reply, which may read it later, keeps the
 * buffer and the next command that takes one gets a new buffer. At most one engine call per loan takes it
 * ({@link #take}); every other call of the same command, and every call outside a loan (a continuation after a
 * replica's acknowledgement, a retry on a timer), allocates its own buffer as before.
 *
 * <p><b>Concurrency.</b> Confined to the connection's event loop: {@link #take} answers {@code null} on any other
 * thread (the thread that opened the loan is recorded, and no other thread ever finds itself there), so a
 * continuation that runs elsewhere never shares the buffer of a command running meanwhile.
 */
final class LentResponseBuffer {

    /** First capacity of a lent buffer: a GET of a value of a few hundred bytes and ZRANGE's ten pairs fit. */
    static final int FIRST_BYTES = 512;
    /** A buffer grown past this (a large value) is left to the collector rather than kept by an idle connection. */
    static final int KEEP_AT_MOST_BYTES = 4096;

    /** Cleared and referred to by no reply; {@code null} before the first loan and after a buffer was kept. */
    private ByteBuf spare;
    /** The buffer the command of the open loan took, or {@code null}. */
    private ByteBuf taken;
    /** The thread running the command of the open loan; {@code null} while no loan is open. */
    private Thread lender;

    /** The event loop is about to run a command: its first engine call may take the buffer. */
    void open() {
        lender = Thread.currentThread();
        taken = null;
    }

    /**
     * For the engine call of the command running now: an empty heap buffer to write the answer into, or {@code null}
     * when none is lent (no loan open on this thread, or the command already took it).
     */
    ByteBuf take() {
        if (lender != Thread.currentThread() || taken != null) {
            return null;
        }
        taken = spare != null ? spare : Unpooled.buffer(FIRST_BYTES);
        spare = null;
        return taken;
    }

    /** The command's reply was rendered into the output: the buffer it took, if any, is free for the next command. */
    void written() {
        ByteBuf buffer = taken;
        lender = null;
        taken = null;
        if (buffer != null && buffer.capacity() <= KEEP_AT_MOST_BYTES) {
            spare = buffer.clear();
        }
    }

    /** The command's reply is not rendered yet (or its result is unknown): the buffer it took stays with it. */
    void kept() {
        lender = null;
        taken = null;
    }
}
