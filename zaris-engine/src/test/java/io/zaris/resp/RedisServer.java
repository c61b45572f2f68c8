package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.NodeAddress;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/**
 * A standalone {@code redis-server} (Debian package redis-server) on a free loopback port, without persistence, and
 * the comparison of its replies with Zaris's: the same commands sent to both, every reply alike.
 */
record RedisServer(Process process, NodeAddress address) implements AutoCloseable {

    static final String MISSING = "redis-server is not installed (Debian package redis-server); skipping the"
            + " comparison with a real Redis";

    static boolean installed() {
        try {
            Process process = new ProcessBuilder("redis-server", "--version").redirectErrorStream(true).start();
            return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    static RedisServer start() throws IOException {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        Process process = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        NodeAddress address = new NodeAddress("127.0.0.1", port);
        RedisServer server = new RedisServer(process, address);
        Awaitility.await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
                .until(() -> RedisCli.exchangeLines(address, "PING\n").equals("+PONG\r\n+OK\r\n"));
        return server;
    }

    /**
     * Sends {@code commands} (inline, one per element) to a fresh redis-server and to the Zaris node at {@code zaris},
     * and asserts every reply alike; the arrays answering a command named in {@code unordered} are compared sorted.
     */
    static void assertSameReplies(NodeAddress zaris, List<String> commands, Set<String> unordered) throws Exception {
        List<String> redis;
        try (RedisServer server = start()) {
            redis = replies(server.address(), commands, unordered);
        }
        List<String> ours = replies(zaris, commands, unordered);
        assertThat(redis).as("Redis answered every command").hasSameSizeAs(commands).doesNotContainNull();
        for (int i = 0; i < commands.size(); i++) {
            assertThat(ours.get(i)).as("reply to %s", commands.get(i)).isEqualTo(redis.get(i));
        }
    }

    /** The replies of the server at {@code address} to {@code commands}, each rendered as one string. */
    static List<String> replies(NodeAddress address, List<String> commands, Set<String> unordered) throws IOException {
        RespReplyReader reader = new RespReplyReader(
                RedisCli.exchange(address, String.join("\r\n", commands) + "\r\nQUIT\r\n"));
        List<String> out = new ArrayList<>();
        for (String command : commands) {
            String name = command.split(" ")[0].toUpperCase(Locale.ROOT);
            out.add(reader.next(unordered.contains(name)));
        }
        return out;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
