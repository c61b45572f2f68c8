package io.zaris.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import io.zaris.client.RequestTimeout;
import io.zaris.server.ServerArguments;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.StandardEnvironment;

/**
 * The {@code ZARIS_*} variables, through a real {@link SpringApplication} (environment post-processors do
 * not run in an ApplicationContextRunner). The process environment cannot be changed from Java, so each
 * application gets an environment whose system variables are the test's map.
 */
@ExtendWith(OutputCaptureExtension.class)
class ZarisEnvironmentPostProcessorTests {

    @Test
    void variablesShouldOverrideApplicationPropertiesAndReachTheClient() {
        Map<String, Object> variables = Map.of("ZARIS_REQUEST_TIMEOUT", "infinite", "ZARIS_DISABLE_RETRIES", "true",
                "ZARIS_CLIENT_MAP_REFRESH_WAIT_MS", "1234");

        try (ConfigurableApplicationContext context = run(variables)) {
            ZarisProperties properties = context.getBean(ZarisProperties.class);
            assertThat(properties.getRequestTimeout()).isEqualTo(RequestTimeout.INFINITE);
            assertThat(properties.getClient().isDisableRetries()).isTrue();
            assertThat(properties.getClient().getMapRefreshWait()).isEqualTo(Duration.ofMillis(1234));
        }
    }

    @Test
    void variablesShouldBeatTheConfigurationFileButLoseToCommandLineArguments() {
        Map<String, Object> variables = Map.of("ZARIS_REQUEST_TIMEOUT", "5s", "ZARIS_DISABLE_RETRIES", "true");

        try (ConfigurableApplicationContext context = run(variables, "--spring.config.name=zaris-env-test",
                "--zaris.client.disable-retries=false")) {
            ZarisProperties properties = context.getBean(ZarisProperties.class);
            assertThat(properties.getRequestTimeout()).isEqualTo(RequestTimeout.of(Duration.ofSeconds(5)));
            assertThat(properties.getClient().isDisableRetries()).isFalse();
            assertThat(properties.getClient().getMapRefreshWait()).as("from the configuration file").isEqualTo(Duration.ofSeconds(3));
        }
    }

    @Test
    void badRequestTimeoutShouldStopStartUpWithAReportNamingTheVariable(CapturedOutput output) {
        assertThatExceptionOfType(InvalidZarisEnvironmentVariableException.class)
                .isThrownBy(() -> run(Map.of("ZARIS_REQUEST_TIMEOUT", "soon")))
                .satisfies(e -> assertThat(e.variable()).isEqualTo("ZARIS_REQUEST_TIMEOUT"));

        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("The environment variable ZARIS_REQUEST_TIMEOUT is set to 'soon'")
                .contains("ZARIS_REQUEST_TIMEOUT=30s");
    }

    @Test
    void badDisableRetriesShouldStopStartUpWithAReportNamingTheVariable(CapturedOutput output) {
        assertThatExceptionOfType(InvalidZarisEnvironmentVariableException.class)
                .isThrownBy(() -> run(Map.of("ZARIS_DISABLE_RETRIES", "yes")));

        assertThat(output).contains("ZARIS_DISABLE_RETRIES is set to 'yes'").contains("ZARIS_DISABLE_RETRIES=true");
    }

    @Test
    void mapRefreshWaitWithAUnitShouldWinOverTheDeprecatedMillisecondsVariable(CapturedOutput output) {
        try (ConfigurableApplicationContext context = run(Map.of("ZARIS_CLIENT_MAP_REFRESH_WAIT", "2s",
                "ZARIS_CLIENT_MAP_REFRESH_WAIT_MS", "9000"))) {
            assertThat(context.getBean(ZarisProperties.class).getClient().getMapRefreshWait())
                    .isEqualTo(Duration.ofSeconds(2));
        }
        assertThatExceptionOfType(InvalidZarisEnvironmentVariableException.class)
                .isThrownBy(() -> run(Map.of("ZARIS_CLIENT_MAP_REFRESH_WAIT", "soon")));
        assertThat(output).contains("ZARIS_CLIENT_MAP_REFRESH_WAIT is set to 'soon'")
                .contains("ZARIS_CLIENT_MAP_REFRESH_WAIT=15s");
    }

    @Test
    void badMapRefreshWaitShouldStopStartUpWithAReportNamingTheVariable(CapturedOutput output) {
        assertThatExceptionOfType(InvalidZarisEnvironmentVariableException.class)
                .isThrownBy(() -> run(Map.of("ZARIS_CLIENT_MAP_REFRESH_WAIT_MS", "-5")));

        assertThat(output).contains("ZARIS_CLIENT_MAP_REFRESH_WAIT_MS is set to '-5'")
                .contains("ZARIS_CLIENT_MAP_REFRESH_WAIT_MS=15000");
    }

    @Test
    void mapShouldTranslateEachVariableAndIgnoreAbsentOnes() {
        Map<String, String> variables = Map.of("ZARIS_REQUEST_TIMEOUT", "1500ms", "ZARIS_CLIENT_MAP_REFRESH_WAIT_MS", " 20 ");

        assertThat(ZarisEnvironmentPostProcessor.map(variables::get)).containsExactly(
                Map.entry("zaris.request-timeout", "1500ms"), Map.entry("zaris.client.map-refresh-wait", "20ms"));
        assertThat(ZarisEnvironmentPostProcessor.map(name -> null)).isEmpty();
    }

    @Test
    void theServersTlsVariablesShouldSetTheTlsPropertiesAndTheOlderSpellingsStillWork() {
        Map<String, Object> variables = Map.of(ServerArguments.TLS_KEYSTORE_PASSWORD_VARIABLE, "from-server-name",
                "ZARIS_TLS_TRUSTSTOREPASSWORD", "older-spelling", "ZARIS_TLS_CERT", "/etc/zaris/node.pem",
                "ZARIS_TLS_KEY", "/etc/zaris/node.key", "ZARIS_TLS_CA", "/etc/zaris/ca.pem");

        try (ConfigurableApplicationContext context = run(variables)) {
            ZarisProperties.Tls tls = context.getBean(ZarisProperties.class).getTls();
            assertThat(tls.getKeyStorePassword()).isEqualTo("from-server-name");
            assertThat(tls.getTrustStorePassword()).isEqualTo("older-spelling");
            assertThat(tls.getCertificateChain()).hasToString("/etc/zaris/node.pem");
            assertThat(tls.getPrivateKey()).hasToString("/etc/zaris/node.key");
            assertThat(tls.getTrustedCertificates()).hasToString("/etc/zaris/ca.pem");
        }
    }

    @Test
    void bothSpellingsWithDifferentValuesShouldStopStartUpNamingBoth(CapturedOutput output) {
        assertThatExceptionOfType(InvalidZarisEnvironmentVariableException.class)
                .isThrownBy(() -> run(Map.of("ZARIS_TLS_KEYSTORE_PASSWORD", "one", "ZARIS_TLS_KEYSTOREPASSWORD", "two")));

        assertThat(output).contains("ZARIS_TLS_KEYSTORE_PASSWORD is set to 'one'")
                .contains("unset ZARIS_TLS_KEYSTOREPASSWORD");
        assertThat(ZarisEnvironmentPostProcessor.map(Map.of("ZARIS_TLS_KEYSTORE_PASSWORD", "same",
                "ZARIS_TLS_KEYSTOREPASSWORD", "same")::get)).containsEntry("zaris.tls.key-store-password", "same");
    }

    @Test
    void theTlsVariablesShouldBeTheServersNames() {
        assertThat(ServerTlsVariable.KEY_STORE_PASSWORD.variable())
                .isEqualTo(ServerArguments.TLS_KEYSTORE_PASSWORD_VARIABLE);
        assertThat(ServerTlsVariable.TRUST_STORE_PASSWORD.variable())
                .isEqualTo(ServerArguments.TLS_TRUSTSTORE_PASSWORD_VARIABLE);
        // The server's rule for an option's variable: ZARIS_ and the option's name, dashes as underscores.
        assertThat(ServerTlsVariable.CERTIFICATE_CHAIN.variable()).isEqualTo("ZARIS_" + "tls-cert".toUpperCase().replace('-', '_'));
        assertThat(ServerTlsVariable.KEY_STORE_PASSWORD.relaxedSpelling()).isEqualTo("ZARIS_TLS_KEYSTOREPASSWORD");
    }

    private static ConfigurableApplicationContext run(Map<String, Object> variables, String... args) {
        return application(variables).run(args);
    }

    private static SpringApplication application(Map<String, Object> variables) {
        SpringApplication application = new SpringApplication(EnvironmentOnly.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.setEnvironment(new StandardEnvironment() {
            @Override
            public Map<String, Object> getSystemEnvironment() {
                return variables;
            }
        });
        return application;
    }

    /** Binds the properties and nothing else: no cluster is needed to see where values come from. */
    @Configuration(proxyBeanMethods = false)
    @org.springframework.boot.context.properties.EnableConfigurationProperties(ZarisProperties.class)
    static class EnvironmentOnly {
    }
}
