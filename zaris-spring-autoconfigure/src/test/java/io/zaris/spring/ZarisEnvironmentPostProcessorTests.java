package io.zaris.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import io.zaris.client.RequestTimeout;
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
