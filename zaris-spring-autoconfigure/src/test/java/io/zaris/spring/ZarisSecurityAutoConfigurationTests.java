package io.zaris.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.client.ClientMetrics;
import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.model.KvStatus;
import io.zaris.security.Credentials;
import io.zaris.transport.ZarisStatusException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** {@code zaris.security.*}: the client logs in, and a password makes the embedded nodes require it. */
class ZarisSecurityAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ZarisAutoConfiguration.class))
            .withPropertyValues("zaris.embedded.nodes=1", "zaris.embedded.partitions=8", "zaris.embedded.segments=64");

    @Test
    void runWithAPasswordShouldProtectTheEmbeddedNodesAndLogTheClientIn() {
        runner.withPropertyValues("zaris.security.username=app", "zaris.security.password=p4ss").run(context -> {
            ZarisClient client = context.getBean(ZarisClient.class);
            assertThat(client.sync().put("secured", "v".getBytes(StandardCharsets.UTF_8))).isPositive();
            ZarisEmbeddedClusterLifecycle lifecycle = context.getBean(ZarisEmbeddedClusterLifecycle.class);
            assertThatThrownBy(() -> ZarisClient.connect(ZarisClientOptions.builder().seeds(lifecycle.seeds())
                    .credentials(new Credentials("app", "wrong")).environment(Map.of())
                    .bootstrapTimeout(Duration.ofSeconds(3)).build()))
                    .isInstanceOfSatisfying(ZarisStatusException.class,
                            e -> assertThat(e.status()).isEqualTo(KvStatus.UNAUTHORIZED));
        });
    }

    @Test
    void clientOptionsCarryTheConfiguredCredentials() {
        ZarisProperties properties = new ZarisProperties();
        properties.getSecurity().setPassword("p4ss");
        ZarisClientOptions options = ZarisAutoConfiguration.clientOptions(properties,
                java.util.List.of(io.zaris.model.NodeAddress.parse("127.0.0.1:7101")), ClientMetrics.disabled());
        assertThat(options.credentials()).isEqualTo(new Credentials("default", "p4ss"));
        assertThat(ZarisAutoConfiguration.embeddedSecurity(properties.getSecurity()).requiresAuthentication()).isTrue();
        assertThat(ZarisAutoConfiguration.embeddedSecurity(new ZarisProperties.Security()).requiresAuthentication()).isFalse();
    }

    @Test
    void passwordAndUserVariablesMapToSecurityProperties() {
        Map<String, String> variables = Map.of("ZARIS_PASSWORD", "from-env", "ZARIS_USER", "app");
        assertThat(ZarisEnvironmentPostProcessor.map(variables::get))
                .containsEntry("zaris.security.password", "from-env")
                .containsEntry("zaris.security.username", "app");
        assertThatThrownBy(() -> ZarisEnvironmentPostProcessor.map(Map.of("ZARIS_PASSWORD", "")::get))
                .isInstanceOf(InvalidZarisEnvironmentVariableException.class);
    }
}
