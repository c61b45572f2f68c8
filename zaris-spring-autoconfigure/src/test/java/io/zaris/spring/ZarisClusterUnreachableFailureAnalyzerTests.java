package io.zaris.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.model.NodeAddress;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

/**
 * Seeds where no node listens, through a real application context: the start-up failure must name the seeds,
 * where they came from (the property or a connection-details bean) and what to check.
 */
@ExtendWith(OutputCaptureExtension.class)
class ZarisClusterUnreachableFailureAnalyzerTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ZarisAutoConfiguration.class));

    @Test
    void seedsFromThePropertyThatAnswerNothingShouldBeReportedWithThePropertyAndWhatToCheck() throws IOException {
        String seed = "127.0.0.1:" + closedPort();
        runner.withPropertyValues("zaris.client.seeds=" + seed, "zaris.client.bootstrap-timeout=1s").run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = new ZarisClusterUnreachableFailureAnalyzer().analyze(context.getStartupFailure());

            assertThat(analysis).as("an analysis of %s", context.getStartupFailure()).isNotNull();
            assertThat(analysis.getDescription()).contains("[" + seed + "] of zaris.client.seeds")
                    .contains("cannot connect to " + seed);
            assertThat(analysis.getAction()).contains("Check that zaris.client.seeds names the data port")
                    .contains("zaris.client.bootstrap-timeout");
        });
    }

    @Test
    void seedsFromAConnectionDetailsBeanShouldBeReportedWithThatBean() throws IOException {
        NodeAddress seed = NodeAddress.parse("127.0.0.1:" + closedPort());
        runner.withPropertyValues("zaris.client.bootstrap-timeout=1s")
                .withBean(ZarisConnectionDetails.class, () -> () -> List.of(seed))
                .run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = new ZarisClusterUnreachableFailureAnalyzer()
                            .analyze(context.getStartupFailure());

                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription()).contains("of the ZarisConnectionDetails bean");
                    assertThat(analysis.getAction()).contains("Check that the ZarisConnectionDetails bean");
                });
    }

    @Test
    void aRealApplicationShouldPrintTheReportInsteadOfAStackTrace(CapturedOutput output) throws IOException {
        SpringApplication application = new SpringApplication(ZarisOnly.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        String seed = "127.0.0.1:" + closedPort();

        assertThatThrownBy(() -> application.run("--zaris.client.seeds=" + seed, "--zaris.client.bootstrap-timeout=1s"))
                .hasRootCauseInstanceOf(io.zaris.transport.ZarisTransportException.class);
        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("Zaris could not reach its cluster at start-up through the seeds [" + seed + "]");
    }

    /** A loopback port that was free a moment ago and that nothing listens on now. */
    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(ZarisAutoConfiguration.class)
    static class ZarisOnly {
    }
}
