package io.zaris.chaos;

import io.zaris.client.CounterValue;
import io.zaris.client.ListEnd;
import io.zaris.client.NearCacheOptions;
import io.zaris.client.NearCacheRead;
import io.zaris.client.ReadResult;
import io.zaris.client.WriteOutcome;
import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.model.NodeAddress;
import io.zaris.model.VersionedValue;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * One client of a chaos run: its own {@link ZarisClient} (own connections, own routing table, own map
 * refreshes), used by one thread, one call at a time, each call recorded in the history with the times of the
 * run's clock.
 *
 * <p>Options are the client defaults: retries, attempt and request timeouts, refresh waits. Only the
 * environment is ignored (so no {@code ZARIS_*} variable changes a default), and two observers are added: a
 * lost-write listener and the {@link AttemptLog}.
 *
 * <p>Reads take the blocking API (direct sockets first, as an application's blocking reads do); a client with a
 * near cache ({@link #connectWithNearCache}) reads through {@link ZarisClient#read}, which says whether the near
 * cache answered, and the history keeps that. Writes take
 * the pipelined API and wait on it: the blocking PUT and DELETE first try a direct socket and, after a timeout
 * there, silently fall back to the pipelined path, so an attempt that may have been applied would go unseen
 * and a later refusal would look determinate.
 */
final class ChaosClient implements AutoCloseable {

    private final int id;
    private final ZarisClient client;
    private final AttemptLog attempts;
    private final HistoryRecorder recorder;

    private ChaosClient(int id, ZarisClient client, AttemptLog attempts, HistoryRecorder recorder) {
        this.id = id;
        this.client = client;
        this.attempts = attempts;
        this.recorder = recorder;
    }

    /** Connects with the default options; {@code password} is {@code null} for nodes that take none. */
    static ChaosClient connect(int id, List<NodeAddress> seeds, String password, HistoryRecorder recorder) {
        AttemptLog attempts = new AttemptLog(recorder);
        ZarisClient client = ZarisClient.connect(options(seeds, password, "chaos-" + id, attempts, recorder));
        return new ChaosClient(id, client, attempts, recorder);
    }

    /** Connects with the default options and a near cache of the default bounds (it holds every workload key). */
    static ChaosClient connectWithNearCache(int id, List<NodeAddress> seeds, String password, HistoryRecorder recorder) {
        AttemptLog attempts = new AttemptLog(recorder);
        ZarisClient client = ZarisClient.connect(builder(seeds, password, "chaos-near-" + id, attempts, recorder)
                .nearCache(NearCacheOptions.builder().build()).build());
        return new ChaosClient(id, client, attempts, recorder);
    }

    static ZarisClientOptions options(List<NodeAddress> seeds, String password, String name, AttemptLog attempts,
                                      HistoryRecorder recorder) {
        return builder(seeds, password, name, attempts, recorder).build();
    }

    private static ZarisClientOptions.Builder builder(List<NodeAddress> seeds, String password, String name,
                                                      AttemptLog attempts, HistoryRecorder recorder) {
        return ZarisClientOptions.builder().seeds(seeds).password(password).clientName(name).environment(Map.of())
                .metrics(attempts).lostWriteListener(recorder::namedLost);
    }

    /** How the report states the chaos clients' options, read from the options themselves. */
    static String describe(ZarisClientOptions options) {
        boolean defaults = options.maxAttempts() == ZarisClientOptions.DEFAULT_MAX_ATTEMPTS
                && options.attemptTimeout().equals(ZarisClientOptions.DEFAULT_ATTEMPT_TIMEOUT)
                && options.requestTimeout().equals(ZarisClientOptions.DEFAULT_REQUEST_TIMEOUT)
                && options.retryBackoff().equals(ZarisClientOptions.DEFAULT_RETRY_BACKOFF)
                && options.mapRefreshWait().equals(ZarisClientOptions.DEFAULT_MAP_REFRESH_WAIT)
                && options.asyncAckHistory() == ZarisClientOptions.DEFAULT_ASYNC_ACK_HISTORY
                && !options.retriesDisabled();
        String requestTimeout = options.requestTimeout().isInfinite() ? "infinite"
                : options.requestTimeout().duration().toMillis() + " ms";
        return (defaults ? "default client options" : "NON-DEFAULT client options") + ": max attempts "
                + options.maxAttempts() + ", attempt timeout " + options.attemptTimeout().toMillis()
                + " ms, request timeout " + requestTimeout + ", retry backoff " + options.retryBackoff().toMillis()
                + " ms, map refresh wait " + options.mapRefreshWait().toMillis() + " ms, ASYNC acknowledgements remembered "
                + options.asyncAckHistory() + "; environment variables ignored";
    }

    int id() {
        return id;
    }

    ZarisClientOptions options() {
        return client.options();
    }

    /** Writes {@code value} (unique in the run) to {@code key}. */
    void put(String key, String value) {
        long invoked = begin();
        Reply reply;
        long revision = -1;
        try {
            revision = client.put(key, value.getBytes(StandardCharsets.UTF_8)).join();
            reply = Reply.OK;
        } catch (RuntimeException e) {
            reply = Reply.of(unwrap(e));
        }
        recorder.record(new Op.Write(id, key, value, revision, invoked, recorder.now(), reply, ambiguousBefore()));
    }

    void delete(String key) {
        long invoked = begin();
        Reply reply;
        try {
            reply = client.delete(key).join() ? Reply.OK : Reply.NOT_FOUND;
        } catch (RuntimeException e) {
            reply = Reply.of(unwrap(e));
        }
        recorder.record(new Op.Write(id, key, null, -1, invoked, recorder.now(), reply, ambiguousBefore()));
    }

    /** Reads {@code key}; {@code null} when the read was not answered. */
    VersionedRead read(String key, boolean afterHealing) {
        long invoked = begin();
        Reply reply;
        VersionedRead read = null;
        boolean local = false;
        try {
            Optional<VersionedValue> value;
            if (client.options().nearCache().enabled()) {
                ReadResult result = client.read(key, NearCacheRead.DEFAULT).join();
                value = result.value();
                local = result.local();
            } else {
                value = client.sync().get(key);
            }
            read = new VersionedRead(value.map(v -> new String(v.value(), StandardCharsets.UTF_8)).orElse(null),
                    value.map(VersionedValue::version).orElse(0L));
            reply = value.isPresent() ? Reply.OK : Reply.NOT_FOUND;
        } catch (RuntimeException e) {
            reply = Reply.of(unwrap(e));
        }
        recorder.record(new Op.Read(id, key, read == null ? null : read.value(), afterHealing, local, invoked,
                recorder.now(), reply));
        return read;
    }

    /** Replaces {@code expected}, read at {@code version}, by {@code value} (unique in the run). */
    void compareAndSet(String key, String expected, long version, String value) {
        long invoked = begin();
        Reply reply;
        long revision = -1;
        try {
            WriteOutcome outcome = client.putIfVersion(key, value.getBytes(StandardCharsets.UTF_8), version, null).join();
            reply = outcome.applied() ? Reply.OK : Reply.CONFLICT;
            revision = outcome.applied() ? outcome.version() : -1;
        } catch (RuntimeException e) {
            reply = Reply.of(unwrap(e));
        }
        recorder.record(new Op.Cas(id, key, expected, value, revision, invoked, recorder.now(), reply,
                ambiguousBefore()));
    }

    void increment(String key, long delta) {
        long invoked = begin();
        Reply reply;
        long result = 0;
        long revision = -1;
        try {
            CounterValue counted = client.incrementVersioned(key, delta).join();
            result = counted.value();
            revision = counted.version();
            reply = Reply.OK;
        } catch (RuntimeException e) {
            reply = Reply.of(unwrap(e));
        }
        recorder.record(new Op.Increment(id, key, delta, result, revision, invoked, recorder.now(), reply, ambiguousBefore()));
    }

    /** HINCRBY of the hash's counter field {@link Workload#HASH_FIELD}, recorded with the revision it names. */
    void hashIncrement(String key, long delta) {
        long invoked = begin();
        Reply reply;
        long result = 0;
        long revision = -1;
        try {
            CounterValue counted = client.hashIncrementVersioned(key, Workload.HASH_FIELD, delta).join();
            result = counted.value();
            revision = counted.version();
            reply = Reply.OK;
        } catch (RuntimeException e) {
            reply = Reply.of(unwrap(e));
        }
        recorder.record(new Op.Increment(id, key, delta, result, revision, invoked, recorder.now(), reply,
                ambiguousBefore(), Op.Increment.Target.HASH_FIELD));
    }

    /**
     * ZINCRBY of the sorted set's member {@link Workload#SCORE_MEMBER}. Deltas are whole numbers and their sums stay
     * far below 2^53, so every score is a whole number a double holds exactly. Its API returns no revision.
     */
    void scoreIncrement(String key, long delta) {
        long invoked = begin();
        Reply reply;
        long result = 0;
        try {
            result = (long) client.sortedSetIncrement(key, Workload.SCORE_MEMBER, delta).join().doubleValue();
            reply = Reply.OK;
        } catch (RuntimeException e) {
            reply = Reply.of(unwrap(e));
        }
        recorder.record(new Op.Increment(id, key, delta, result, -1, invoked, recorder.now(), reply, ambiguousBefore(),
                Op.Increment.Target.SORTED_SET_SCORE));
    }

    /** HGET of the hash's counter field, recorded as a read of the key; {@code afterHealing} as for {@link #read}. */
    boolean readHashCounter(String key, boolean afterHealing) {
        return recordRead(key, afterHealing, () -> {
            byte[] field = client.hashGet(key, Workload.HASH_FIELD).join();
            return field == null ? null : new String(field, StandardCharsets.UTF_8);
        });
    }

    /**
     * ZSCORE of the sorted set's member, recorded as a read of the key: a whole score as a decimal integer, any other
     * as Java prints a double (which the counter check then reports as no counter value).
     */
    boolean readScore(String key, boolean afterHealing) {
        return recordRead(key, afterHealing, () -> {
            Double score = client.sortedSetScore(key, Workload.SCORE_MEMBER).join();
            if (score == null) {
                return null;
            }
            return score == Math.rint(score) && Math.abs(score) < 0x1p53 ? Long.toString(score.longValue()) : score.toString();
        });
    }

    /** Runs one read (null: the key or member is absent) and records it as a read of the key; true when it answered. */
    private boolean recordRead(String key, boolean afterHealing, Supplier<String> readValue) {
        long invoked = begin();
        Reply reply;
        String value = null;
        try {
            value = readValue.get();
            reply = value == null ? Reply.NOT_FOUND : Reply.OK;
        } catch (RuntimeException e) {
            reply = Reply.of(unwrap(e));
        }
        recorder.record(new Op.Read(id, key, value, afterHealing, false, invoked, recorder.now(), reply));
        return reply.tookEffect();
    }

    /** SADD of one member (unique in the run) to the set at the key. */
    void setAdd(String key, String member) {
        long invoked = begin();
        Reply reply;
        try {
            client.setAdd(key, member).join();
            reply = Reply.OK;
        } catch (RuntimeException e) {
            reply = Reply.of(unwrap(e));
        }
        recorder.record(new Op.SetAdd(id, key, member, invoked, recorder.now(), reply, ambiguousBefore()));
    }

    /** SMEMBERS of the set at the key; whether it was answered. */
    boolean readSet(String key, boolean afterHealing) {
        long invoked = begin();
        Reply reply;
        Set<String> members = null;
        try {
            members = client.setMembers(key).join();
            reply = Reply.OK;
        } catch (RuntimeException e) {
            reply = Reply.of(unwrap(e));
        }
        recorder.record(new Op.SetRead(id, key, members, afterHealing, invoked, recorder.now(), reply));
        return reply.tookEffect();
    }

    /** RPUSH of one element (unique in the run); the list's length after it, {@code -1} when not acknowledged. */
    long push(String key, String element) {
        long invoked = begin();
        Reply reply;
        long length = -1;
        try {
            length = client.listPush(key, ListEnd.TAIL, element.getBytes(StandardCharsets.UTF_8)).join();
            reply = Reply.OK;
        } catch (RuntimeException e) {
            reply = Reply.of(unwrap(e));
        }
        recorder.record(new Op.Push(id, key, element, invoked, recorder.now(), reply, ambiguousBefore()));
        return length;
    }

    /** LPOP of one element; whether it took one. */
    boolean pop(String key) {
        long invoked = begin();
        Reply reply;
        String element = null;
        try {
            List<byte[]> popped = client.listPop(key, ListEnd.HEAD, 1).join();
            element = popped.isEmpty() ? null : new String(popped.get(0), StandardCharsets.UTF_8);
            reply = popped.isEmpty() ? Reply.NOT_FOUND : Reply.OK;
        } catch (RuntimeException e) {
            reply = Reply.of(unwrap(e));
        }
        recorder.record(new Op.Pop(id, key, element, invoked, recorder.now(), reply, ambiguousBefore()));
        return element != null;
    }

    /** LRANGE of the whole list at the key; whether it was answered. */
    boolean readList(String key) {
        long invoked = begin();
        Reply reply;
        List<String> elements = null;
        try {
            elements = client.listRange(key, 0, -1).join().stream()
                    .map(element -> new String(element, StandardCharsets.UTF_8)).toList();
            reply = Reply.OK;
        } catch (RuntimeException e) {
            reply = Reply.of(unwrap(e));
        }
        recorder.record(new Op.ListRead(id, key, elements, invoked, recorder.now(), reply));
        return reply.tookEffect();
    }

    @Override
    public void close() {
        client.close();
    }

    /** What a read returned: the value ({@code null}: absent) and its version ({@code 0}: absent). */
    record VersionedRead(String value, long version) {
    }

    private long begin() {
        attempts.begin();
        return recorder.now();
    }

    private boolean ambiguousBefore() {
        return attempts.ambiguousAttemptSinceBegin();
    }

    private static Throwable unwrap(RuntimeException e) {
        return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    }
}
