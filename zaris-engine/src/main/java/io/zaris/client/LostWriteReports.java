package io.zaris.client;

import io.zaris.protocol.TakeoverRevisions;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Names acknowledged ASYNC writes that a takeover lost: remembers each ASYNC acknowledgement in the
 * {@link AsyncAckLedger}, and when a node announces a takeover ({@link TakeoverRevisions}) reports the remembered
 * writes the new owner did not inherit, to the meters, the log and the application's lost-write listener.
 *
 * <p>Threads: acknowledgements are recorded by whichever thread completes a write (a connection's event loop, or
 * the caller on the direct path); takeovers arrive on the event loop of the connection that carried the push, or
 * on the thread reading a direct socket. The ledger guards itself. {@code takeovers} serialises the takeovers: the
 * same one can arrive on several connections at once, and whichever comes second waits until the first has
 * reported, so a read that follows the push on any connection follows the report too.
 */
final class LostWriteReports {

    private static final Logger log = LoggerFactory.getLogger(LostWriteReports.class);

    private final AsyncAckLedger acks;
    private final ClientMetrics metrics;
    private final Consumer<LostWrite> listener;
    private final Object takeovers = new Object();

    LostWriteReports(int history, ClientMetrics metrics, Consumer<LostWrite> listener) {
        this.acks = new AsyncAckLedger(history);
        this.metrics = metrics;
        this.listener = listener;
    }

    /**
     * An ASYNC acknowledgement of {@code revision} of {@code key} under {@code epoch}: remembered, and reported at
     * once when a takeover already known shows it lost.
     */
    void asyncAcknowledged(byte[] key, int partition, int segment, long epoch, long revision) {
        LostWrite lost = acks.record(key, partition, segment, epoch, revision);
        if (lost != null) {
            report(List.of(lost));
        }
    }

    /** A node took a partition over: reports the remembered writes it did not inherit. */
    void takenOver(TakeoverRevisions takeover) {
        synchronized (takeovers) {
            report(acks.lostTo(takeover));
        }
    }

    /** ASYNC acknowledgements remembered now. */
    int remembered() {
        return acks.size();
    }

    private void report(List<LostWrite> lost) {
        if (lost.isEmpty()) {
            return;
        }
        metrics.writesLost(lost.size());
        log.warn(LostWrite.describe(lost, LostWrite.KEYS_NAMED_IN_LOG));
        for (LostWrite write : lost) {
            try {
                listener.accept(write);
            } catch (RuntimeException e) {
                log.warn("lost-write listener failed: {}", e.toString());
            }
        }
    }
}
