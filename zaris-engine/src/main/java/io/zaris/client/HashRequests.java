package io.zaris.client;

import static io.zaris.client.CollectionArguments.matching;
import static io.zaris.client.CollectionArguments.members;
import static io.zaris.client.CollectionArguments.pickCount;
import static io.zaris.client.CollectionArguments.textList;
import static io.zaris.client.CollectionArguments.texts;
import static io.zaris.client.RequestInputs.bytes;
import static io.zaris.client.RequestInputs.requireValue;

import io.zaris.model.HashOp;
import io.zaris.protocol.ResponseCodec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * The hash operations of {@link ZarisClient} (HSET to HRANDFIELD), each one request of the key's owner built over
 * {@link CollectionRequests}; their contracts are on the client's methods of the same names.
 *
 * <p>Threads: no mutable state; the futures complete on network threads.
 */
final class HashRequests {

    private final CollectionRequests requests;

    HashRequests(CollectionRequests requests) {
        this.requests = requests;
    }

    CompletableFuture<Long> hashSet(String key, Map<String, byte[]> fields) {
        if (fields.isEmpty()) {
            throw new IllegalArgumentException("hashSet needs at least one field");
        }
        List<byte[]> args = new ArrayList<>(fields.size() * 2);
        fields.forEach((field, value) -> {
            args.add(bytes(field));
            args.add(requireValue(value));
        });
        return requests.hashWrite(key, HashOp.HSET, args, true).thenApply(ResponseCodec.HashAnswer::count);
    }

    CompletableFuture<byte[]> hashGet(String key, String field) {
        return requests.hashRead(key, HashOp.HMGET, List.of(bytes(field))).thenApply(answer -> answer.items().get(0));
    }

    CompletableFuture<Map<String, byte[]>> hashGetAll(String key) {
        return requests.hashRead(key, HashOp.HGETALL, List.of()).thenApply(answer -> {
            Map<String, byte[]> fields = new LinkedHashMap<>();
            List<byte[]> items = answer.items();
            for (int i = 0; i + 1 < items.size(); i += 2) {
                fields.put(new String(items.get(i), StandardCharsets.UTF_8), items.get(i + 1));
            }
            return fields;
        });
    }

    CompletableFuture<Long> hashDelete(String key, String... fields) {
        if (fields.length == 0) {
            throw new IllegalArgumentException("hashDelete needs at least one field");
        }
        List<byte[]> args = new ArrayList<>(fields.length);
        for (String field : fields) {
            args.add(bytes(field));
        }
        return requests.hashWrite(key, HashOp.HDEL, args, true).thenApply(ResponseCodec.HashAnswer::count);
    }

    CompletableFuture<Long> hashIncrement(String key, String field, long delta) {
        return hashIncrementVersioned(key, field, delta).thenApply(CounterValue::value);
    }

    CompletableFuture<CounterValue> hashIncrementVersioned(String key, String field, long delta) {
        List<byte[]> args = List.of(bytes(field), Long.toString(delta).getBytes(StandardCharsets.US_ASCII));
        return requests.versionedHashWrite(key, HashOp.HINCRBY, args, false)
                .thenApply(write -> new CounterValue(write.answer().count(), write.version()));
    }

    CompletableFuture<Map<String, byte[]>> hashGetMany(String key, String... fields) {
        return requests.hashRead(key, HashOp.HMGET, members(fields, "hashGetMany")).thenApply(answer -> {
            Map<String, byte[]> found = new LinkedHashMap<>();
            List<byte[]> items = answer.items();
            for (int i = 0; i < fields.length; i++) {
                if (items.get(i) != null) {
                    found.put(fields[i], items.get(i));
                }
            }
            return found;
        });
    }

    CompletableFuture<Boolean> hashContains(String key, String field) {
        return requests.hashRead(key, HashOp.HMGET, List.of(bytes(field)))
                .thenApply(answer -> answer.items().get(0) != null);
    }

    CompletableFuture<Set<String>> hashFields(String key) {
        return requests.hashRead(key, HashOp.HKEYS, List.of()).thenApply(answer -> texts(answer.items()));
    }

    CompletableFuture<Long> hashSize(String key) {
        return requests.hashRead(key, HashOp.HLEN, List.of()).thenApply(ResponseCodec.HashAnswer::count);
    }

    CompletableFuture<Boolean> hashSetIfAbsent(String key, String field, byte[] value) {
        return requests.hashWrite(key, HashOp.HSETNX, List.of(bytes(field), requireValue(value)), false)
                .thenApply(answer -> answer.count() == 1);
    }

    CompletableFuture<List<byte[]>> hashValues(String key) {
        return requests.hashRead(key, HashOp.HVALS, List.of()).thenApply(ResponseCodec.HashAnswer::items);
    }

    CompletableFuture<Long> hashValueLength(String key, String field) {
        return requests.hashRead(key, HashOp.HMGET, List.of(bytes(field))).thenApply(answer -> {
            byte[] value = answer.items().get(0);
            return value == null ? 0L : value.length;
        });
    }

    CompletableFuture<Double> hashIncrementFloat(String key, String field, double delta) {
        if (Double.isNaN(delta) || Double.isInfinite(delta)) {
            throw new IllegalArgumentException("hashIncrementFloat takes a finite delta, not " + delta);
        }
        List<byte[]> args = List.of(bytes(field), Double.toString(delta).getBytes(StandardCharsets.US_ASCII));
        return requests.hashWrite(key, HashOp.HINCRBYFLOAT, args, false)
                .thenApply(answer -> Double.parseDouble(new String(answer.items().get(0), StandardCharsets.US_ASCII)));
    }

    CompletableFuture<Map<String, byte[]>> hashScan(String key, String pattern) {
        Predicate<byte[]> matches = matching(pattern);
        return requests.hashRead(key, HashOp.HGETALL, List.of()).thenApply(answer -> {
            Map<String, byte[]> fields = new LinkedHashMap<>();
            List<byte[]> items = answer.items();
            for (int i = 0; i + 1 < items.size(); i += 2) {
                if (matches.test(items.get(i))) {
                    fields.put(new String(items.get(i), StandardCharsets.UTF_8), items.get(i + 1));
                }
            }
            return fields;
        });
    }

    CompletableFuture<List<String>> hashRandomFields(String key, int count) {
        return requests.hashRead(key, HashOp.HRANDFIELD, List.of(pickCount("hashRandomFields", count), new byte[] {'0'}))
                .thenApply(answer -> textList(answer.items()));
    }

    CompletableFuture<List<Map.Entry<String, byte[]>>> hashRandomEntries(String key, int count) {
        List<byte[]> args = List.of(pickCount("hashRandomEntries", count), new byte[] {'1'});
        return requests.hashRead(key, HashOp.HRANDFIELD, args).thenApply(answer -> {
            List<byte[]> items = answer.items();
            List<Map.Entry<String, byte[]>> entries = new ArrayList<>(items.size() / 2);
            for (int i = 0; i + 1 < items.size(); i += 2) {
                entries.add(Map.entry(new String(items.get(i), StandardCharsets.UTF_8), items.get(i + 1)));
            }
            return entries;
        });
    }
}
