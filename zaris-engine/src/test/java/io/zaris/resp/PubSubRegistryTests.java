package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.placement.SegmentMapper;
import io.zaris.resp.PubSubRegistry.Kind;
import io.zaris.resp.PubSubRegistry.Name;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The registry's bookkeeping without a network: who a message reaches and in which form, the per-connection and
 * per-node bounds, and the shard channels dropped (with their {@code sunsubscribe} push) when their slot moves away.
 */
@Tag("unit")
class PubSubRegistryTests {

    private final PubSubRegistry registry = new PubSubRegistry(3, 5);

    @Test
    void aMessageReachesChannelSubscribersAndEveryMatchingPatternOnce() {
        List<RespReply.Push> first = new ArrayList<>();
        List<RespReply.Push> second = new ArrayList<>();
        PubSubRegistry.Subscriber a = subscribed(first, Kind.CHANNEL, "news");
        assertThat(registry.reserve(a, 1)).isNull();
        a.subscribe(Kind.PATTERN, name("n*"));
        PubSubRegistry.Subscriber b = subscribed(second, Kind.PATTERN, "*s");

        assertThat(registry.deliver(bytes("news"), bytes("hi"), false)).isEqualTo(3);
        assertThat(kinds(first)).containsExactly("message", "pmessage");
        assertThat(kinds(second)).containsExactly("pmessage");
        assertThat(registry.deliver(bytes("news"), bytes("hi"), true)).as("not a shard channel").isZero();
        assertThat(registry.subscribers(Kind.CHANNEL, bytes("news"))).isEqualTo(1);
        assertThat(registry.patterns()).isEqualTo(2);

        a.unsubscribeAll();
        b.unsubscribeAll();
        assertThat(registry.deliver(bytes("news"), bytes("hi"), false)).isZero();
        assertThat(registry.held()).isZero();
        assertThat(registry.active(Kind.CHANNEL, null)).isEmpty();
    }

    @Test
    void reservationsStopAtTheConnectionAndTheNodeLimit() {
        PubSubRegistry.Subscriber a = registry.subscriber(1, push -> { });
        assertThat(registry.reserve(a, 4)).isEqualTo(RespReply.error("ERR too many subscriptions on this connection (at most 3)"));
        assertThat(registry.held()).as("nothing taken by a refusal").isZero();
        assertThat(registry.reserve(a, 3)).isNull();
        for (String channel : List.of("a", "b", "c")) {
            assertThat(a.subscribe(Kind.CHANNEL, name(channel))).isTrue();
        }
        PubSubRegistry.Subscriber b = registry.subscriber(2, push -> { });
        assertThat(registry.reserve(b, 3)).isEqualTo(RespReply.error("ERR too many subscriptions on this node (at most 5)"));
        assertThat(registry.held()).isEqualTo(3);
        assertThat(registry.reserve(b, 2)).isNull();
        assertThat(registry.held()).isEqualTo(5);
        registry.release(2);
        a.unsubscribe(Kind.CHANNEL, name("a"));
        assertThat(registry.held()).isEqualTo(2);
    }

    @Test
    void aLostSlotDropsItsShardChannelsAndPushesSunsubscribeWithWhatIsLeft() {
        List<RespReply.Push> pushes = new ArrayList<>();
        PubSubRegistry.Subscriber a = subscribed(pushes, Kind.SHARD, "{x}1");
        assertThat(registry.reserve(a, 1)).isNull();
        a.subscribe(Kind.SHARD, name("{y}1"));
        int lostSlot = SegmentMapper.slot("{x}1");

        assertThat(registry.dropShardChannels(slot -> slot == lostSlot)).isEqualTo(1);

        assertThat(pushes).hasSize(1);
        assertThat(rendered(pushes.get(0))).isEqualTo(">3\r\n$12\r\nsunsubscribe\r\n$4\r\n{x}1\r\n:1\r\n");
        assertThat(a.held(Kind.SHARD)).containsExactly(name("{y}1"));
        assertThat(registry.held()).isEqualTo(1);
        assertThat(registry.deliver(bytes("{x}1"), bytes("m"), true)).isZero();
        assertThat(registry.deliver(bytes("{y}1"), bytes("m"), true)).isEqualTo(1);
    }

    private PubSubRegistry.Subscriber subscribed(List<RespReply.Push> pushes, Kind kind, String channel) {
        PubSubRegistry.Subscriber subscriber = registry.subscriber(pushes.size(), pushes::add);
        assertThat(registry.reserve(subscriber, 1)).isNull();
        assertThat(subscriber.subscribe(kind, name(channel))).isTrue();
        return subscriber;
    }

    private static String rendered(RespReply reply) {
        io.netty.buffer.ByteBuf out = io.netty.buffer.Unpooled.buffer();
        RespWriter.write(reply, 3, out);
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    private static List<String> kinds(List<RespReply.Push> pushes) {
        List<String> kinds = new ArrayList<>();
        for (RespReply.Push push : pushes) {
            kinds.add(new String(((RespReply.Bulk) push.items().get(0)).bytes(), StandardCharsets.UTF_8));
        }
        return kinds;
    }

    private static Name name(String text) {
        return new Name(bytes(text));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
