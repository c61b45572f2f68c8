package io.zaris.client;

import static io.zaris.client.CollectionArguments.matching;
import static io.zaris.client.CollectionArguments.members;
import static io.zaris.client.CollectionArguments.number;
import static io.zaris.client.CollectionArguments.parseScore;
import static io.zaris.client.CollectionArguments.pickCount;
import static io.zaris.client.CollectionArguments.score;
import static io.zaris.client.RequestInputs.bytes;

import io.zaris.model.DumpPayload;
import io.zaris.model.HashOp;
import io.zaris.model.KeyContent;
import io.zaris.model.SortedSetScores;
import io.zaris.protocol.ResponseCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The sorted-set operations of {@link ZarisClient} (ZADD to ZRANDMEMBER: ranges by rank, score and member, the
 * algebra and its stores, pops and the blocking pops the client waits for by looking), built over
 * {@link CollectionRequests}; their contracts are on the client's methods of the same names.
 *
 * <p>Threads: no mutable state; the futures complete on network threads, and a wait's looks run there and on the
 * executor's timer.
 */
final class SortedSetRequests {

    private final CollectionRequests requests;
    private final RequestRunner runner;

    SortedSetRequests(CollectionRequests requests, RequestRunner runner) {
        this.requests = requests;
        this.runner = runner;
    }

    CompletableFuture<Long> sortedSetAdd(String key, Map<String, Double> scores) {
        if (scores.isEmpty()) {
            throw new IllegalArgumentException("sortedSetAdd needs at least one member");
        }
        List<byte[]> args = new ArrayList<>(1 + 2 * scores.size());
        args.add(new byte[0]); // no ZADD conditions
        for (Map.Entry<String, Double> entry : scores.entrySet()) {
            args.add(score(entry.getValue(), "sortedSetAdd"));
            args.add(bytes(entry.getKey()));
        }
        return requests.hashWrite(key, HashOp.ZADD, args, true).thenApply(ResponseCodec.HashAnswer::count);
    }

    CompletableFuture<Double> sortedSetIncrement(String key, String member, double delta) {
        List<byte[]> args = List.of(new byte[] {'I'}, score(delta, "sortedSetIncrement"), bytes(member));
        return requests.hashWrite(key, HashOp.ZADD, args, false).thenApply(answer -> parseScore(answer.items().get(0)));
    }

    CompletableFuture<Double> sortedSetScore(String key, String member) {
        return requests.hashRead(key, HashOp.ZMSCORE, List.of(bytes(member))).thenApply(answer -> {
            byte[] score = answer.items().get(0);
            return score == null ? null : parseScore(score);
        });
    }

    CompletableFuture<Long> sortedSetRank(String key, String member, boolean reverse) {
        List<byte[]> args = List.of(bytes(member), new byte[] {(byte) (reverse ? '1' : '0')});
        return requests.hashRead(key, HashOp.ZRANK, args)
                .thenApply(answer -> answer.items().isEmpty() ? null : answer.count());
    }

    CompletableFuture<List<ScoredMember>> sortedSetRange(String key, long start, long stop) {
        return range(key, "RANK", bytes(Long.toString(start)), bytes(Long.toString(stop)));
    }

    CompletableFuture<List<ScoredMember>> sortedSetRangeByScore(String key, double min, double max) {
        return range(key, "SCORE", score(min, "sortedSetRangeByScore"), score(max, "sortedSetRangeByScore"));
    }

    CompletableFuture<Long> sortedSetRemove(String key, String... members) {
        return requests.hashWrite(key, HashOp.ZREM, members(members, "sortedSetRemove"), true)
                .thenApply(ResponseCodec.HashAnswer::count);
    }

    CompletableFuture<Long> sortedSetSize(String key) {
        return requests.hashRead(key, HashOp.ZCARD, List.of()).thenApply(ResponseCodec.HashAnswer::count);
    }

    CompletableFuture<List<ScoredMember>> sortedSetReverseRange(String key, long start, long stop) {
        return range(key, "RANK", true, bytes(Long.toString(start)), bytes(Long.toString(stop)));
    }

    CompletableFuture<List<ScoredMember>> sortedSetReverseRangeByScore(String key, double min, double max) {
        return range(key, "SCORE", true, score(min, "sortedSetReverseRangeByScore"),
                score(max, "sortedSetReverseRangeByScore"));
    }

    CompletableFuture<Long> sortedSetCount(String key, double min, double max) {
        return requests.hashRead(key, HashOp.ZCOUNT, List.of(score(min, "sortedSetCount"), score(max, "sortedSetCount")))
                .thenApply(ResponseCodec.HashAnswer::count);
    }

    CompletableFuture<Long> sortedSetRemoveRangeByScore(String key, double min, double max) {
        List<byte[]> args = List.of(bytes("SCORE"), score(min, "sortedSetRemoveRangeByScore"),
                score(max, "sortedSetRemoveRangeByScore"));
        return requests.hashWrite(key, HashOp.ZREMRANGE, args, true).thenApply(ResponseCodec.HashAnswer::count);
    }

    CompletableFuture<List<ScoredMember>> sortedSetPopMin(String key, int count) {
        return pop(key, false, count, "sortedSetPopMin");
    }

    CompletableFuture<List<ScoredMember>> sortedSetPopMax(String key, int count) {
        return pop(key, true, count, "sortedSetPopMax");
    }

    CompletableFuture<Long> sortedSetAdd(String key, Map<String, Double> scores, SortedSetAddOptions options) {
        Objects.requireNonNull(options, "options must not be null; use SortedSetAddOptions.NONE");
        if (scores.isEmpty()) {
            throw new IllegalArgumentException("sortedSetAdd needs at least one member");
        }
        List<byte[]> args = new ArrayList<>(1 + 2 * scores.size());
        args.add(options.flags(false).letters().getBytes(StandardCharsets.US_ASCII));
        for (Map.Entry<String, Double> entry : scores.entrySet()) {
            args.add(score(entry.getValue(), "sortedSetAdd"));
            args.add(bytes(entry.getKey()));
        }
        return requests.hashWrite(key, HashOp.ZADD, args, true).thenApply(ResponseCodec.HashAnswer::count);
    }

    CompletableFuture<Double> sortedSetIncrement(String key, String member, double delta,
                                                 SortedSetAddOptions options) {
        Objects.requireNonNull(options, "options must not be null; use SortedSetAddOptions.NONE");
        byte[] flags = options.flags(true).letters().getBytes(StandardCharsets.US_ASCII);
        List<byte[]> args = List.of(flags, score(delta, "sortedSetIncrement"), bytes(member));
        return requests.hashWrite(key, HashOp.ZADD, args, false).thenApply(answer -> {
            byte[] score = answer.items().get(0);
            return score == null ? null : parseScore(score);
        });
    }

    CompletableFuture<Map<String, Double>> sortedSetScores(String key, String... members) {
        return requests.hashRead(key, HashOp.ZMSCORE, members(members, "sortedSetScores")).thenApply(answer -> {
            Map<String, Double> found = new LinkedHashMap<>();
            List<byte[]> items = answer.items();
            for (int i = 0; i < members.length; i++) {
                if (items.get(i) != null) {
                    found.put(members[i], parseScore(items.get(i)));
                }
            }
            return found;
        });
    }

    CompletableFuture<List<ScoredMember>> sortedSetRangeByScore(String key, ScoreBound min, ScoreBound max,
                                                                RangeLimit limit) {
        return interval(key, "SCORE", false, scoreBounds(min, max), limit).thenApply(SortedSetRequests::scored);
    }

    CompletableFuture<List<ScoredMember>> sortedSetReverseRangeByScore(String key, ScoreBound min, ScoreBound max,
                                                                       RangeLimit limit) {
        return interval(key, "SCORE", true, scoreBounds(min, max), limit).thenApply(SortedSetRequests::scored);
    }

    CompletableFuture<Long> sortedSetCount(String key, ScoreBound min, ScoreBound max) {
        return requests.hashRead(key, HashOp.ZCOUNT, scoreBounds(min, max)).thenApply(ResponseCodec.HashAnswer::count);
    }

    CompletableFuture<Long> sortedSetRemoveRangeByScore(String key, ScoreBound min, ScoreBound max) {
        return removeRange(key, "SCORE", scoreBounds(min, max), true);
    }

    CompletableFuture<List<String>> sortedSetRangeByLex(String key, LexBound min, LexBound max, RangeLimit limit) {
        return interval(key, "LEX", false, lexBounds(min, max), limit).thenApply(SortedSetRequests::membersOf);
    }

    CompletableFuture<List<String>> sortedSetReverseRangeByLex(String key, LexBound min, LexBound max,
                                                               RangeLimit limit) {
        return interval(key, "LEX", true, lexBounds(min, max), limit).thenApply(SortedSetRequests::membersOf);
    }

    CompletableFuture<Long> sortedSetLexCount(String key, LexBound min, LexBound max) {
        return requests.hashRead(key, HashOp.ZLEXCOUNT, lexBounds(min, max)).thenApply(ResponseCodec.HashAnswer::count);
    }

    CompletableFuture<Long> sortedSetRemoveRangeByLex(String key, LexBound min, LexBound max) {
        return removeRange(key, "LEX", lexBounds(min, max), true);
    }

    CompletableFuture<Long> sortedSetRemoveRangeByRank(String key, long start, long stop) {
        return removeRange(key, "RANK", List.of(number(start), number(stop)), false);
    }

    CompletableFuture<List<ScoredMember>> sortedSetUnion(String... keys) {
        return sortedSetUnion(SortedSetCombineOptions.NONE, keys);
    }

    CompletableFuture<List<ScoredMember>> sortedSetUnion(SortedSetCombineOptions options, String... keys) {
        return combineSorted("UNION", options, keys, "sortedSetUnion");
    }

    CompletableFuture<List<ScoredMember>> sortedSetIntersection(String... keys) {
        return sortedSetIntersection(SortedSetCombineOptions.NONE, keys);
    }

    CompletableFuture<List<ScoredMember>> sortedSetIntersection(SortedSetCombineOptions options, String... keys) {
        return combineSorted("INTER", options, keys, "sortedSetIntersection");
    }

    CompletableFuture<List<ScoredMember>> sortedSetDifference(String... keys) {
        return combineSorted("DIFF", SortedSetCombineOptions.NONE, keys, "sortedSetDifference");
    }

    CompletableFuture<Long> sortedSetUnionStore(String destination, String... keys) {
        return sortedSetUnionStore(destination, SortedSetCombineOptions.NONE, keys);
    }

    CompletableFuture<Long> sortedSetUnionStore(String destination, SortedSetCombineOptions options, String... keys) {
        return storeSorted("UNION", destination, options, keys, "sortedSetUnionStore");
    }

    CompletableFuture<Long> sortedSetIntersectionStore(String destination, String... keys) {
        return sortedSetIntersectionStore(destination, SortedSetCombineOptions.NONE, keys);
    }

    CompletableFuture<Long> sortedSetIntersectionStore(String destination, SortedSetCombineOptions options,
                                                       String... keys) {
        return storeSorted("INTER", destination, options, keys, "sortedSetIntersectionStore");
    }

    CompletableFuture<Long> sortedSetDifferenceStore(String destination, String... keys) {
        return storeSorted("DIFF", destination, SortedSetCombineOptions.NONE, keys, "sortedSetDifferenceStore");
    }

    CompletableFuture<Long> sortedSetIntersectionSize(String... keys) {
        return sortedSetIntersectionSize(0, keys);
    }

    CompletableFuture<Long> sortedSetIntersectionSize(long limit, String... keys) {
        if (limit < 0) {
            throw new IllegalArgumentException("sortedSetIntersectionSize takes a limit of 0 (none) or more, not " + limit);
        }
        return combineSorted("INTER", SortedSetCombineOptions.NONE, keys, "sortedSetIntersectionSize")
                .thenApply(members -> limit == 0 ? members.size() : Math.min(members.size(), limit));
    }

    CompletableFuture<Long> sortedSetRangeStore(String destination, String source, long start, long stop) {
        return storeRange(destination, source, "RANK", false, List.of(number(start), number(stop)), RangeLimit.ALL);
    }

    CompletableFuture<Long> sortedSetReverseRangeStore(String destination, String source, long start, long stop) {
        return storeRange(destination, source, "RANK", true, List.of(number(start), number(stop)), RangeLimit.ALL);
    }

    CompletableFuture<Long> sortedSetRangeByScoreStore(String destination, String source, ScoreBound min,
                                                       ScoreBound max, RangeLimit limit) {
        return storeRange(destination, source, "SCORE", false, scoreBounds(min, max), limit);
    }

    CompletableFuture<Long> sortedSetReverseRangeByScoreStore(String destination, String source, ScoreBound min,
                                                              ScoreBound max, RangeLimit limit) {
        return storeRange(destination, source, "SCORE", true, scoreBounds(min, max), limit);
    }

    CompletableFuture<Long> sortedSetRangeByLexStore(String destination, String source, LexBound min, LexBound max,
                                                     RangeLimit limit) {
        return storeRange(destination, source, "LEX", false, lexBounds(min, max), limit);
    }

    CompletableFuture<Long> sortedSetReverseRangeByLexStore(String destination, String source, LexBound min,
                                                            LexBound max, RangeLimit limit) {
        return storeRange(destination, source, "LEX", true, lexBounds(min, max), limit);
    }

    /**
     * ZCOMBINE on the keys' owner: {@code kind} (UNION, INTER or DIFF) of the sorted sets (or sets) at {@code keys}, in
     * one step under their segment's lock; a key of another type fails it with {@code WRONG_TYPE}.
     */
    private CompletableFuture<List<ScoredMember>> combineSorted(String kind, SortedSetCombineOptions options, String[] keys,
                                                                String operation) {
        List<byte[]> args = combineArgs(kind, options, keys, operation);
        requests.commonSegmentKeys(List.of(keys));
        return requests.hashRead(keys[0], HashOp.ZCOMBINE, args).thenApply(answer -> scored(answer.items()));
    }

    /** ZCOMBINESTORE at {@code destination}: idempotent unless the destination is one of the sources. */
    private CompletableFuture<Long> storeSorted(String kind, String destination, SortedSetCombineOptions options,
                                                String[] keys, String operation) {
        List<byte[]> args = combineArgs(kind, options, keys, operation);
        List<String> all = new ArrayList<>(keys.length + 1);
        all.add(destination);
        all.addAll(List.of(keys));
        requests.commonSegmentKeys(all);
        boolean idempotent = !List.of(keys).contains(destination);
        return requests.hashWrite(destination, HashOp.ZCOMBINESTORE, args, idempotent)
                .thenApply(ResponseCodec.HashAnswer::count);
    }

    /** ZCOMBINE's arguments: kind, aggregate, then each key with its weight. */
    private static List<byte[]> combineArgs(String kind, SortedSetCombineOptions options, String[] keys, String operation) {
        Objects.requireNonNull(options, "options must not be null; use SortedSetCombineOptions.NONE");
        if (keys.length == 0) {
            throw new IllegalArgumentException(operation + " needs at least one key");
        }
        double[] weights = options.weightsFor(keys.length, operation);
        List<byte[]> args = new ArrayList<>(2 + 2 * keys.length);
        args.add(bytes(kind));
        args.add(bytes(options.aggregate().name()));
        for (int i = 0; i < keys.length; i++) {
            args.add(bytes(keys[i]));
            args.add(SortedSetScores.formatBytes(weights[i]));
        }
        return args;
    }

    /**
     * ZRANGESTORE as two steps: the range read with its scores, then the destination replaced by a sorted set of them
     * (RESTORE … REPLACE with no TTL), or deleted when the range is empty.
     */
    private CompletableFuture<Long> storeRange(String destination, String source, String by, boolean reverse,
                                               List<byte[]> bounds, RangeLimit limit) {
        requests.commonSegmentKeys(List.of(destination, source));
        return interval(source, by, reverse, bounds, limit).thenCompose(items -> {
            long members = items.size() / 2;
            if (members == 0) {
                return runner.delete(destination).thenApply(existed -> 0L);
            }
            List<byte[]> elements = new ArrayList<>(items.size());
            for (int i = 0; i + 1 < items.size(); i += 2) {
                elements.add(items.get(i));
                elements.add(SortedSetScores.encode(parseScore(items.get(i + 1))));
            }
            byte[] payload = DumpPayload.encode(new KeyContent(KeyContent.Type.SORTED_SET, elements));
            return requests.hashWrite(destination, HashOp.RESTORE, List.of(new byte[] {'R'}, new byte[] {'0'}, payload), true)
                    .thenApply(answer -> members);
        });
    }

    private CompletableFuture<List<byte[]>> interval(String key, String by, boolean reverse, List<byte[]> bounds,
                                                     RangeLimit limit) {
        Objects.requireNonNull(limit, "limit must not be null; use RangeLimit.ALL");
        List<byte[]> args = List.of(bytes(by), new byte[] {(byte) (reverse ? '1' : '0')}, bounds.get(0), bounds.get(1),
                number(limit.offset()), number(limit.count()));
        return requests.hashRead(key, HashOp.ZRANGE, args).thenApply(ResponseCodec.HashAnswer::items);
    }

    private CompletableFuture<Long> removeRange(String key, String by, List<byte[]> bounds, boolean idempotent) {
        List<byte[]> args = List.of(bytes(by), bounds.get(0), bounds.get(1));
        return requests.hashWrite(key, HashOp.ZREMRANGE, args, idempotent).thenApply(ResponseCodec.HashAnswer::count);
    }

    private static List<byte[]> scoreBounds(ScoreBound min, ScoreBound max) {
        Objects.requireNonNull(min, "min must not be null; use ScoreBound.unbounded()");
        Objects.requireNonNull(max, "max must not be null; use ScoreBound.unbounded()");
        return List.of(min.encode(true), max.encode(false));
    }

    private static List<byte[]> lexBounds(LexBound min, LexBound max) {
        Objects.requireNonNull(min, "min must not be null; use LexBound.unbounded()");
        Objects.requireNonNull(max, "max must not be null; use LexBound.unbounded()");
        return List.of(min.encode(true), max.encode(false));
    }

    /** The members of member, score, member, score … */
    private static List<String> membersOf(List<byte[]> items) {
        List<String> out = new ArrayList<>(items.size() / 2);
        for (int i = 0; i < items.size(); i += 2) {
            out.add(new String(items.get(i), StandardCharsets.UTF_8));
        }
        return out;
    }

    CompletableFuture<PoppedMember> sortedSetBlockingPopMin(List<String> keys, Duration timeout) {
        return blockingPop(keys, false, timeout, "sortedSetBlockingPopMin");
    }

    CompletableFuture<PoppedMember> sortedSetBlockingPopMax(List<String> keys, Duration timeout) {
        return blockingPop(keys, true, timeout, "sortedSetBlockingPopMax");
    }

    private CompletableFuture<PoppedMember> blockingPop(List<String> keys, boolean max, Duration timeout, String operation) {
        return requests.waitForPop(keys, this::sortedSetSize, sortedSetPops(keys, max, 1, operation), operation, timeout)
                .thenApply(popped -> popped == null ? null : new PoppedMember(popped.key(), popped.members().get(0)));
    }

    CompletableFuture<PoppedMembers> sortedSetPopMin(List<String> keys, int count) {
        return sortedSetPops(keys, false, count, "sortedSetPopMin").get();
    }

    CompletableFuture<PoppedMembers> sortedSetPopMax(List<String> keys, int count) {
        return sortedSetPops(keys, true, count, "sortedSetPopMax").get();
    }

    CompletableFuture<PoppedMembers> sortedSetBlockingPopMin(List<String> keys, int count, Duration timeout) {
        return requests.waitForPop(keys, this::sortedSetSize, sortedSetPops(keys, false, count, "sortedSetBlockingPopMin"),
                "sortedSetBlockingPopMin", timeout);
    }

    CompletableFuture<PoppedMembers> sortedSetBlockingPopMax(List<String> keys, int count, Duration timeout) {
        return requests.waitForPop(keys, this::sortedSetSize, sortedSetPops(keys, true, count, "sortedSetBlockingPopMax"),
                "sortedSetBlockingPopMax", timeout);
    }

    /**
     * ZMPOP on {@code keys}, checked now and sent on each {@code get()}, as {@link ListRequests#listPops} is: its answer
     * is the first key holding a sorted set then and the members popped from it with their scores ({@code null}: none
     * held one).
     */
    private Supplier<CompletableFuture<PoppedMembers>> sortedSetPops(List<String> keys, boolean max, int count,
                                                                     String operation) {
        List<String> names = requests.severalKeys(keys, count, operation);
        List<byte[]> args = new ArrayList<>(names.size() + 1);
        args.add(new byte[] {(byte) (max ? '1' : '0')});
        args.add(number(count));
        for (int i = 1; i < names.size(); i++) {
            args.add(bytes(names.get(i)));
        }
        List<byte[]> sent = List.copyOf(args);
        return () -> requests.hashWrite(names.get(0), HashOp.ZMPOP, sent, false).thenApply(answer -> {
            List<byte[]> items = answer.items();
            return items.size() < 3 ? null : new PoppedMembers(new String(items.get(0), StandardCharsets.UTF_8),
                    scored(items.subList(1, items.size())));
        });
    }

    CompletableFuture<List<ScoredMember>> sortedSetScan(String key, String pattern) {
        Predicate<byte[]> matches = matching(pattern);
        List<byte[]> args = List.of(bytes("RANK"), new byte[] {'0'}, new byte[] {'0'}, bytes("-1"), new byte[] {'0'},
                bytes("-1"));
        return requests.hashRead(key, HashOp.ZRANGE, args).thenApply(answer -> {
            List<byte[]> items = answer.items();
            List<byte[]> kept = new ArrayList<>(items.size());
            for (int i = 0; i + 1 < items.size(); i += 2) {
                if (matches.test(items.get(i))) {
                    kept.add(items.get(i));
                    kept.add(items.get(i + 1));
                }
            }
            return scored(kept);
        });
    }

    CompletableFuture<List<String>> sortedSetRandomMembers(String key, int count) {
        return requests.hashRead(key, HashOp.ZRANDMEMBER, List.of(pickCount("sortedSetRandomMembers", count)))
                .thenApply(answer -> membersOf(answer.items()));
    }

    CompletableFuture<List<ScoredMember>> sortedSetRandomMembersWithScores(String key, int count) {
        return requests.hashRead(key, HashOp.ZRANDMEMBER, List.of(pickCount("sortedSetRandomMembersWithScores", count)))
                .thenApply(answer -> scored(answer.items()));
    }

    private CompletableFuture<List<ScoredMember>> pop(String key, boolean max, int count, String operation) {
        if (count < 0) {
            throw new IllegalArgumentException(operation + " takes a count of 0 or more, not " + count);
        }
        List<byte[]> args = List.of(new byte[] {(byte) (max ? '1' : '0')}, number(count));
        return requests.hashWrite(key, HashOp.ZPOP, args, false).thenApply(answer -> scored(answer.items()));
    }

    private CompletableFuture<List<ScoredMember>> range(String key, String by, byte[] start, byte[] stop) {
        return range(key, by, false, start, stop);
    }

    private CompletableFuture<List<ScoredMember>> range(String key, String by, boolean reverse, byte[] start, byte[] stop) {
        List<byte[]> args = List.of(bytes(by), new byte[] {(byte) (reverse ? '1' : '0')}, start, stop, new byte[] {'0'},
                bytes("-1"));
        return requests.hashRead(key, HashOp.ZRANGE, args).thenApply(answer -> scored(answer.items()));
    }

    /** Member, score, member, score … as the sorted-set ops answer them. */
    private static List<ScoredMember> scored(List<byte[]> items) {
        List<ScoredMember> out = new ArrayList<>(items.size() / 2);
        for (int i = 0; i + 1 < items.size(); i += 2) {
            out.add(new ScoredMember(new String(items.get(i), StandardCharsets.UTF_8), parseScore(items.get(i + 1))));
        }
        return out;
    }
}
