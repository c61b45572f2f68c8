package io.zaris.client;

import io.zaris.model.HashOp;
import io.zaris.model.KvStatus;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.SegmentMapper;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A client connected to one stub node that owns every partition (64 segments in 8 partitions), for the unit tests of
 * the collection operations: what they send, what they refuse before sending, how their answers are read and retried.
 * The client does not refresh its map on its own and backs off 1 ms between attempts.
 */
final class StubNodeClient implements AutoCloseable {

    static final PartitionLayout LAYOUT = PartitionLayout.of(64, 8);

    final StubNode node;
    final ZarisClient client;

    private StubNodeClient(StubNode node, ZarisClient client) {
        this.node = node;
        this.client = client;
    }

    static StubNodeClient start() throws Exception {
        StubNode node = StubNode.start("a");
        node.serve(StubNode.view(LAYOUT, Map.of("a", node.address()), p -> new PartitionRuntime("a", 1, PartitionHealth.HEALTHY)));
        ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(List.of(node.address()))
                .environment(Map.of()).mapRefreshInterval(Duration.ofHours(1)).retryBackoff(Duration.ofMillis(1)).build());
        return new StubNodeClient(node, client);
    }

    /** The collection requests the node received, in order. */
    List<Request.Hash> hashRequests() {
        return node.received().stream().map(received -> (Request.Hash) received.request()).toList();
    }

    /** The ops of the collection requests the node received, in order. */
    List<HashOp> hashOps() {
        return hashRequests().stream().map(Request.Hash::hashOp).toList();
    }

    /** A collection read's OK: its count and items. */
    static StubNode.Answer answer(long count, List<byte[]> items) {
        return (request, out) -> {
            ResponseCodec.writeHeader(out, request.id(), KvStatus.OK);
            ResponseCodec.writeHashAnswer(out, count, items);
            return true;
        };
    }

    /** A collection write's OK: its count, the version of its change and a SYNC acknowledgement. */
    static StubNode.Answer written(long count) {
        return (request, out) -> {
            ResponseCodec.writeHeader(out, request.id(), KvStatus.OK);
            ResponseCodec.writeHashAnswer(out, count, List.of());
            out.writeLong(9);
            ResponseCodec.writeAck(out, 1, true);
            return true;
        };
    }

    /** A key that maps to another segment than {@code key} does. */
    static String keyOfAnotherSegmentThan(String key) {
        SegmentMapper mapper = new SegmentMapper(LAYOUT.segmentCount());
        int segment = mapper.segmentOf(key.getBytes(StandardCharsets.UTF_8));
        for (int i = 0; ; i++) {
            String candidate = "other-" + i;
            if (mapper.segmentOf(candidate.getBytes(StandardCharsets.UTF_8)) != segment) {
                return candidate;
            }
        }
    }

    @Override
    public void close() throws Exception {
        client.close();
        node.close();
    }
}
