package io.zaris.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.client.ZarisClient;
import io.zaris.model.NodeAddress;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** {@code zaris.embedded.resp.*}: the embedded nodes speak the Redis protocol when asked to, on the port asked for. */
class ZarisEmbeddedRespTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ZarisAutoConfiguration.class))
            .withPropertyValues("zaris.embedded.nodes=1", "zaris.embedded.partitions=8", "zaris.embedded.segments=64");

    @Test
    void respIsOffByDefault() {
        runner.run(context -> assertThat(context.getBean(ZarisEmbeddedClusterLifecycle.class).cluster().respSeeds()).isEmpty());
    }

    @Test
    void anEnabledNodeAnswersRedisCommandsOnTheConfiguredPort() throws Exception {
        int port = freePort();
        runner.withPropertyValues("zaris.embedded.resp.enabled=true", "zaris.embedded.resp.port=" + port).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(ZarisEmbeddedClusterLifecycle.class).cluster().respSeeds())
                    .containsExactly(new NodeAddress("127.0.0.1", port));
            String replies = exchange(port, "*1\r\n$4\r\nPING\r\n"
                    + "*3\r\n$3\r\nSET\r\n$8\r\nresp:key\r\n$5\r\nhello\r\n"
                    + "*2\r\n$3\r\nGET\r\n$8\r\nresp:key\r\n"
                    + "*1\r\n$4\r\nQUIT\r\n");
            assertThat(replies).isEqualTo("+PONG\r\n+OK\r\n$5\r\nhello\r\n+OK\r\n");
            // The same cluster behind the Java client: a RESP write is an ordinary write.
            assertThat(context.getBean(ZarisClient.class).sync().get("resp:key"))
                    .hasValueSatisfying(value -> assertThat(new String(value.value(), StandardCharsets.UTF_8)).isEqualTo("hello"));
        });
    }

    @Test
    void anEnabledNodeWithoutAPortGetsAnEphemeralOne() {
        runner.withPropertyValues("zaris.embedded.resp.enabled=true").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(ZarisEmbeddedClusterLifecycle.class).cluster().respSeeds()).singleElement()
                    .satisfies(address -> assertThat(address.port()).isPositive());
        });
    }

    @Test
    void aPortWithoutRespOrOutOfRangeFailsNamingTheProperty() {
        runner.withPropertyValues("zaris.embedded.resp.port=7379").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasStackTraceContaining("zaris.embedded.resp.enabled is false");
        });
        runner.withPropertyValues("zaris.embedded.resp.enabled=true", "zaris.embedded.resp.port=70000").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasStackTraceContaining("zaris.embedded.resp.port must leave a port");
        });
    }

    /** Sends {@code input} to a loopback port, half-closes, and returns everything answered before the close. */
    private static String exchange(int port, String input) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(input.getBytes(StandardCharsets.US_ASCII));
            socket.shutdownOutput();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            socket.getInputStream().transferTo(out);
            return out.toString(StandardCharsets.ISO_8859_1);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
