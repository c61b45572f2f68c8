package io.zaris.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.client.ZarisClient;
import io.zaris.model.NodeAddress;
import io.zaris.security.Credentials;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** A ZarisConnectionDetails bean against the shared real cluster: it wins over the properties and the embedded mode. */
class ZarisConnectionDetailsTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ZarisAutoConfiguration.class));

    @Test
    void aConnectionDetailsBeanShouldBeUsedInsteadOfAnEmbeddedCluster() {
        runner.withBean(ZarisConnectionDetails.class, () -> () -> SharedTestCluster.cluster().seeds())
                .run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(ZarisEmbeddedClusterLifecycle.class);
                    String key = "details-" + UUID.randomUUID();
                    context.getBean(ZarisClient.class).sync().put(key, "seen".getBytes(StandardCharsets.UTF_8));

                    assertThat(SharedTestCluster.client().sync().get(key)).isPresent();
                });
    }

    @Test
    void aConnectionDetailsBeanShouldWinOverTheSeedsProperty() {
        runner.withPropertyValues("zaris.client.seeds=127.0.0.1:1")
                .withBean(ZarisConnectionDetails.class, () -> () -> SharedTestCluster.cluster().seeds())
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(ZarisClient.class));
    }

    @Test
    void aConnectionDetailsBeanWithoutSeedsShouldFailNamingIt() {
        runner.withBean(ZarisConnectionDetails.class, () -> List::<NodeAddress>of)
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("ZarisConnectionDetails").hasMessageContaining("names no seed"));
    }

    @Test
    void credentialsShouldComeFromTheDetailsWithTheDefaultUserWhenNoneIsNamed() {
        assertThat(ZarisAutoConfiguration.credentials(details(null, null))).isNull();
        assertThat(ZarisAutoConfiguration.credentials(details(null, "s3cret")))
                .isEqualTo(new Credentials(Credentials.DEFAULT_USER, "s3cret"));
        assertThat(ZarisAutoConfiguration.credentials(details("app", "s3cret"))).isEqualTo(new Credentials("app", "s3cret"));
    }

    private static ZarisConnectionDetails details(String user, String password) {
        return new ZarisConnectionDetails() {
            @Override
            public List<NodeAddress> getSeeds() {
                return List.of(NodeAddress.parse("127.0.0.1:7101"));
            }

            @Override
            public String getUsername() {
                return user;
            }

            @Override
            public String getPassword() {
                return password;
            }
        };
    }
}
