package io.zaris.client;

import static io.zaris.client.CollectionArguments.matching;
import static io.zaris.client.CollectionArguments.members;
import static io.zaris.client.CollectionArguments.number;
import static io.zaris.client.CollectionArguments.textList;
import static io.zaris.client.CollectionArguments.texts;
import static io.zaris.client.RequestInputs.bytes;

import io.zaris.model.HashOp;
import io.zaris.model.SetAlgebra;
import io.zaris.protocol.ResponseCodec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * The set operations of {@link ZarisClient} (SADD to SSCAN, and the set algebra of SINTER, SUNION and SDIFF, combined
 * here from a read per key), built over {@link CollectionRequests}; their contracts are on the client's methods of the
 * same names.
 *
 * <p>Threads: no mutable state; the futures complete on network threads.
 */
final class SetRequests {

    private final CollectionRequests requests;

    SetRequests(CollectionRequests requests) {
        this.requests = requests;
    }

    CompletableFuture<Long> setAdd(String key, String... members) {
        return requests.hashWrite(key, HashOp.SADD, members(members, "setAdd"), true)
                .thenApply(ResponseCodec.HashAnswer::count);
    }

    CompletableFuture<Long> setRemove(String key, String... members) {
        return requests.hashWrite(key, HashOp.SREM, members(members, "setRemove"), true)
                .thenApply(ResponseCodec.HashAnswer::count);
    }

    CompletableFuture<Set<String>> setMembers(String key) {
        return requests.hashRead(key, HashOp.SMEMBERS, List.of()).thenApply(answer -> {
            Set<String> members = new LinkedHashSet<>();
            for (byte[] member : answer.items()) {
                members.add(new String(member, StandardCharsets.UTF_8));
            }
            return members;
        });
    }

    CompletableFuture<Boolean> setContains(String key, String member) {
        return requests.hashRead(key, HashOp.SMISMEMBER, List.of(bytes(member)))
                .thenApply(answer -> answer.items().get(0) != null);
    }

    CompletableFuture<Long> setSize(String key) {
        return requests.hashRead(key, HashOp.SCARD, List.of()).thenApply(ResponseCodec.HashAnswer::count);
    }

    CompletableFuture<Set<String>> setPop(String key, int count) {
        if (count < 0) {
            throw new IllegalArgumentException("setPop takes a count of 0 or more, not " + count);
        }
        return requests.hashWrite(key, HashOp.SPOP, List.of(number(count)), false)
                .thenApply(answer -> texts(answer.items()));
    }

    CompletableFuture<List<String>> setRandomMembers(String key, int count) {
        return requests.hashRead(key, HashOp.SRANDMEMBER, List.of(number(count)))
                .thenApply(answer -> textList(answer.items()));
    }

    CompletableFuture<Set<String>> setIntersection(String... keys) {
        return combineSets("sinter", keys).thenApply(CollectionArguments::texts);
    }

    CompletableFuture<Set<String>> setUnion(String... keys) {
        return combineSets("sunion", keys).thenApply(CollectionArguments::texts);
    }

    CompletableFuture<Set<String>> setDifference(String... keys) {
        return combineSets("sdiff", keys).thenApply(CollectionArguments::texts);
    }

    CompletableFuture<Long> setIntersectionStore(String destination, String... keys) {
        return storeSets("sinter", destination, keys);
    }

    CompletableFuture<Long> setUnionStore(String destination, String... keys) {
        return storeSets("sunion", destination, keys);
    }

    CompletableFuture<Long> setDifferenceStore(String destination, String... keys) {
        return storeSets("sdiff", destination, keys);
    }

    CompletableFuture<List<Boolean>> setContainsMany(String key, String... members) {
        return requests.hashRead(key, HashOp.SMISMEMBER, members(members, "setContainsMany")).thenApply(answer -> {
            List<Boolean> present = new ArrayList<>(members.length);
            for (byte[] item : answer.items()) {
                present.add(item != null);
            }
            return present;
        });
    }

    CompletableFuture<Boolean> setMove(String source, String destination, String member) {
        requests.commonSegmentKeys(List.of(source, destination));
        return requests.hashWrite(source, HashOp.SMOVE, List.of(bytes(destination), bytes(member)), false)
                .thenApply(answer -> answer.count() == 1);
    }

    CompletableFuture<Long> setIntersectionSize(String... keys) {
        return setIntersectionSize(0, keys);
    }

    CompletableFuture<Long> setIntersectionSize(long limit, String... keys) {
        if (limit < 0) {
            throw new IllegalArgumentException("setIntersectionSize takes a limit of 0 (none) or more, not " + limit);
        }
        return combineSets("sinter", keys).thenApply(members ->
                limit == 0 ? members.size() : Math.min(members.size(), limit));
    }

    CompletableFuture<Set<String>> setScan(String key, String pattern) {
        Predicate<byte[]> matches = matching(pattern);
        return requests.hashRead(key, HashOp.SMEMBERS, List.of()).thenApply(answer -> {
            Set<String> members = new LinkedHashSet<>();
            for (byte[] member : answer.items()) {
                if (matches.test(member)) {
                    members.add(new String(member, StandardCharsets.UTF_8));
                }
            }
            return members;
        });
    }

    /**
     * The sets at {@code keys} combined as {@code command} (sinter, sunion or sdiff) says: each set read by a request
     * of its own to the segment's owner (one connection, in order), then combined here. Like the RESP port's SINTER,
     * the reads are not one atomic step: a write between two of them may be seen by one and not the other. A key of
     * another type fails the whole with {@code WRONG_TYPE}.
     */
    private CompletableFuture<List<byte[]>> combineSets(String command, String[] keys) {
        if (keys.length == 0) {
            throw new IllegalArgumentException(command + " needs at least one key");
        }
        requests.commonSegmentKeys(List.of(keys));
        return readSets(command, keys);
    }

    private CompletableFuture<List<byte[]>> readSets(String command, String[] keys) {
        List<CompletableFuture<List<byte[]>>> reads = new ArrayList<>(keys.length);
        for (String key : keys) {
            reads.add(requests.hashRead(key, HashOp.SMEMBERS, List.of()).thenApply(ResponseCodec.HashAnswer::items));
        }
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenApply(ignored -> {
            List<List<byte[]>> sets = new ArrayList<>(reads.size());
            for (CompletableFuture<List<byte[]>> read : reads) {
                sets.add(read.join());
            }
            return SetAlgebra.apply(command, sets);
        });
    }

    /** {@link #combineSets}, then one write replacing the destination by the result (SSTORE; retried as idempotent). */
    private CompletableFuture<Long> storeSets(String command, String destination, String[] keys) {
        if (keys.length == 0) {
            throw new IllegalArgumentException(command + "store needs at least one key");
        }
        List<String> all = new ArrayList<>(keys.length + 1);
        all.add(destination);
        all.addAll(List.of(keys));
        requests.commonSegmentKeys(all);
        return readSets(command, keys).thenCompose(result -> requests.hashWrite(destination, HashOp.SSTORE, result, true))
                .thenApply(ResponseCodec.HashAnswer::count);
    }
}
