package io.zaris.client;

import static io.zaris.client.CollectionArguments.number;
import static io.zaris.client.RequestInputs.bytes;
import static io.zaris.client.RequestInputs.requireValue;

import io.zaris.model.HashOp;
import io.zaris.protocol.ResponseCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The list operations of {@link ZarisClient} (LPUSH to LPOS, with the blocking pops and moves the client waits for by
 * looking), built over {@link CollectionRequests}; their contracts are on the client's methods of the same names.
 *
 * <p>Threads: no mutable state; the futures complete on network threads, and a wait's looks run there and on the
 * executor's timer.
 */
final class ListRequests {

    private final CollectionRequests requests;

    ListRequests(CollectionRequests requests) {
        this.requests = requests;
    }

    CompletableFuture<Long> listPush(String key, ListEnd end, byte[]... elements) {
        if (elements.length == 0) {
            throw new IllegalArgumentException("listPush needs at least one element");
        }
        return requests.hashWrite(key, end == ListEnd.HEAD ? HashOp.LPUSH : HashOp.RPUSH, List.of(elements), false)
                .thenApply(ResponseCodec.HashAnswer::count);
    }

    CompletableFuture<List<byte[]>> listPop(String key, ListEnd end, int count) {
        if (count < 0) {
            throw new IllegalArgumentException("listPop takes a count of 0 or more, not " + count);
        }
        return requests.hashWrite(key, end == ListEnd.HEAD ? HashOp.LPOP : HashOp.RPOP,
                List.of(Integer.toString(count).getBytes(StandardCharsets.US_ASCII)), false)
                .thenApply(ResponseCodec.HashAnswer::items);
    }

    CompletableFuture<List<byte[]>> listRange(String key, long start, long stop) {
        return requests.hashRead(key, HashOp.LRANGE, List.of(Long.toString(start).getBytes(StandardCharsets.US_ASCII),
                Long.toString(stop).getBytes(StandardCharsets.US_ASCII))).thenApply(ResponseCodec.HashAnswer::items);
    }

    CompletableFuture<Long> listLength(String key) {
        return requests.hashRead(key, HashOp.LLEN, List.of()).thenApply(ResponseCodec.HashAnswer::count);
    }

    CompletableFuture<byte[]> listIndex(String key, long index) {
        return requests.hashRead(key, HashOp.LINDEX, List.of(number(index))).thenApply(answer -> answer.items().get(0));
    }

    CompletableFuture<Void> listSet(String key, long index, byte[] element) {
        return requests.hashWrite(key, HashOp.LSET, List.of(number(index), requireValue(element)), true)
                .thenApply(answer -> null);
    }

    CompletableFuture<Void> listTrim(String key, long start, long stop) {
        return requests.hashWrite(key, HashOp.LTRIM, List.of(number(start), number(stop)), false).thenApply(answer -> null);
    }

    CompletableFuture<Long> listRemove(String key, long count, byte[] element) {
        return requests.hashWrite(key, HashOp.LREM, List.of(number(count), requireValue(element)), count == 0)
                .thenApply(ResponseCodec.HashAnswer::count);
    }

    CompletableFuture<byte[]> listMove(String source, String destination, ListEnd from, ListEnd to) {
        Objects.requireNonNull(from, "from must not be null");
        Objects.requireNonNull(to, "to must not be null");
        requests.commonSegmentKeys(List.of(source, destination));
        List<byte[]> args = List.of(bytes(destination), side(from), side(to));
        return requests.hashWrite(source, HashOp.LMOVE, args, false).thenApply(answer -> answer.items().get(0));
    }

    CompletableFuture<byte[]> listBlockingPop(String key, ListEnd end, Duration timeout) {
        Objects.requireNonNull(end, "end must not be null");
        return requests.pollUntilFound("listBlockingPop", timeout, () -> listLength(key)
                .thenCompose(length -> length == 0 ? CompletableFuture.<byte[]>completedFuture(null)
                        : listPop(key, end, 1).thenApply(popped -> popped.isEmpty() ? null : popped.get(0))));
    }

    CompletableFuture<PoppedElement> listBlockingPop(List<String> keys, ListEnd end, Duration timeout) {
        return requests.waitForPop(keys, this::listLength, listPops(keys, end, 1, "listBlockingPop"),
                        "listBlockingPop", timeout)
                .thenApply(popped -> popped == null ? null : new PoppedElement(popped.key(), popped.elements().get(0)));
    }

    CompletableFuture<PoppedElements> listPop(List<String> keys, ListEnd end, int count) {
        return listPops(keys, end, count, "listPop").get();
    }

    CompletableFuture<PoppedElements> listBlockingPop(List<String> keys, ListEnd end, int count, Duration timeout) {
        return requests.waitForPop(keys, this::listLength, listPops(keys, end, count, "listBlockingPop"), "listBlockingPop",
                timeout);
    }

    /**
     * LMPOP on {@code keys}, checked now and sent on each {@code get()}: its answer is the first key holding a list then
     * and the elements popped from it ({@code null}: none held one). The arguments are built once, immutable, so each
     * look of a wait may send them from whichever network thread ends the look before it.
     */
    private Supplier<CompletableFuture<PoppedElements>> listPops(List<String> keys, ListEnd end, int count,
                                                                 String operation) {
        Objects.requireNonNull(end, "end must not be null");
        List<String> names = requests.severalKeys(keys, count, operation);
        List<byte[]> args = new ArrayList<>(names.size() + 1);
        args.add(side(end));
        args.add(number(count));
        for (int i = 1; i < names.size(); i++) {
            args.add(bytes(names.get(i)));
        }
        List<byte[]> sent = List.copyOf(args);
        return () -> requests.hashWrite(names.get(0), HashOp.LMPOP, sent, false).thenApply(answer -> {
            List<byte[]> items = answer.items();
            return items.size() < 2 ? null : new PoppedElements(new String(items.get(0), StandardCharsets.UTF_8),
                    List.copyOf(items.subList(1, items.size())));
        });
    }

    CompletableFuture<byte[]> listBlockingMove(String source, String destination, ListEnd from, ListEnd to,
                                               Duration timeout) {
        Objects.requireNonNull(from, "from must not be null");
        Objects.requireNonNull(to, "to must not be null");
        requests.commonSegmentKeys(List.of(source, destination));
        return requests.pollUntilFound("listBlockingMove", timeout, () -> listLength(source)
                .thenCompose(length -> length == 0 ? CompletableFuture.<byte[]>completedFuture(null)
                        : listMove(source, destination, from, to)));
    }

    CompletableFuture<Long> listPushIfExists(String key, ListEnd end, byte[]... elements) {
        Objects.requireNonNull(end, "end must not be null");
        if (elements.length == 0) {
            throw new IllegalArgumentException("listPushIfExists needs at least one element");
        }
        for (byte[] element : elements) {
            requireValue(element);
        }
        return requests.hashWrite(key, end == ListEnd.HEAD ? HashOp.LPUSHX : HashOp.RPUSHX, List.of(elements), false)
                .thenApply(ResponseCodec.HashAnswer::count);
    }

    CompletableFuture<Long> listInsert(String key, InsertPosition position, byte[] pivot, byte[] element) {
        Objects.requireNonNull(position, "position must not be null");
        List<byte[]> args = List.of(bytes(position.name()), requireValue(pivot), requireValue(element));
        return requests.hashWrite(key, HashOp.LINSERT, args, false).thenApply(ResponseCodec.HashAnswer::count);
    }

    CompletableFuture<Long> listPosition(String key, byte[] element) {
        return listPosition(key, element, ListPositionOptions.DEFAULT);
    }

    CompletableFuture<Long> listPosition(String key, byte[] element, ListPositionOptions options) {
        return positions(key, element, -1, options).thenApply(found -> found.isEmpty() ? null : found.get(0));
    }

    CompletableFuture<List<Long>> listPositions(String key, byte[] element, long count, ListPositionOptions options) {
        if (count < 0) {
            throw new IllegalArgumentException("listPositions takes a count of 0 (every match) or more, not " + count);
        }
        return positions(key, element, count, options);
    }

    private CompletableFuture<List<Long>> positions(String key, byte[] element, long count, ListPositionOptions options) {
        Objects.requireNonNull(options, "options must not be null; use ListPositionOptions.DEFAULT");
        List<byte[]> args = List.of(requireValue(element), number(options.rank()), number(count),
                number(options.maxLength()));
        return requests.hashRead(key, HashOp.LPOS, args).thenApply(answer -> {
            List<Long> indexes = new ArrayList<>(answer.items().size());
            for (byte[] index : answer.items()) {
                indexes.add(Long.parseLong(new String(index, StandardCharsets.US_ASCII)));
            }
            return indexes;
        });
    }

    /** LMOVE's name of a list end. */
    private static byte[] side(ListEnd end) {
        return (end == ListEnd.HEAD ? "LEFT" : "RIGHT").getBytes(StandardCharsets.US_ASCII);
    }
}
