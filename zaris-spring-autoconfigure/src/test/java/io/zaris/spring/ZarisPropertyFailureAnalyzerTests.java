package io.zaris.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.spring.cache.ZarisCacheAutoConfiguration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Configuration;

/**
 * Every class of bad configuration Zaris checks itself, each through a real application context: the start-up
 * failure must be analysed into a report that names the property and says how to fix it.
 */
@ExtendWith(OutputCaptureExtension.class)
class ZarisPropertyFailureAnalyzerTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ZarisAutoConfiguration.class, ZarisCacheAutoConfiguration.class))
            .withUserConfiguration(CachingOn.class);

    static Stream<Arguments> badConfigurations() {
        String seeds = SharedTestCluster.seedsProperty();
        return Stream.of(
                // a value out of range
                Arguments.of(new String[] {"zaris.embedded.partitions=0"}, "zaris.embedded.partitions",
                        "Set zaris.embedded.partitions to a value"),
                Arguments.of(new String[] {"zaris.embedded.max-concurrent-moves=0"},
                        "zaris.embedded.max-concurrent-moves", "Set zaris.embedded.max-concurrent-moves"),
                Arguments.of(new String[] {seeds, "zaris.client.max-attempts=0"}, "zaris.client.max-attempts",
                        "Set zaris.client.max-attempts"),
                // values that contradict each other
                Arguments.of(new String[] {"zaris.embedded.resp.port=7000"}, "zaris.embedded.resp.port",
                        "zaris.embedded.resp.enabled=true"),
                Arguments.of(new String[] {seeds, "zaris.cache.defaults.ttl=10m", "zaris.cache.defaults.time-to-live=5m"},
                        "zaris.cache.defaults.ttl", "Remove zaris.cache.defaults.ttl or zaris.cache.defaults.time-to-live"),
                // something required is missing or malformed
                Arguments.of(new String[] {"zaris.mode=client"}, "zaris.client.seeds", "zaris.client.seeds=10.0.0.1:7101"),
                Arguments.of(new String[] {"zaris.client.seeds=no-port-here"}, "zaris.client.seeds", "host:port"),
                Arguments.of(new String[] {seeds, "zaris.cache.cache-names=books,a::b"}, "zaris.cache.cache-names",
                        "Set zaris.cache.cache-names"),
                Arguments.of(new String[] {"zaris.serialization.allowed-classes=!com.evil.*"},
                        "zaris.serialization.allowed-classes", "Set zaris.serialization.allowed-classes"),
                // a name that points at nothing
                Arguments.of(new String[] {seeds, "zaris.client.ssl.bundle=nowhere"}, "zaris.client.ssl.bundle",
                        "spring.ssl.bundle"),
                Arguments.of(new String[] {seeds, "zaris.cache.caches.books.ttl-function=nowhere"},
                        "zaris.cache.caches.books.ttl-function", "Define a bean named 'nowhere'"),
                // a key that is no setting
                Arguments.of(new String[] {seeds, "zaris.cache.caches.books.tll=10m"}, "zaris.cache.caches.books.tll",
                        "Correct or remove zaris.cache.caches.books.tll"));
    }

    @ParameterizedTest
    @MethodSource("badConfigurations")
    void badConfigurationShouldBeAnalysedIntoAReportNamingThePropertyAndAFix(String[] properties, String property,
            String fix) {
        runner.withPropertyValues(properties).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = new ZarisPropertyFailureAnalyzer().analyze(context.getStartupFailure());

            assertThat(analysis).as("an analysis of %s", context.getStartupFailure()).isNotNull();
            assertThat(analysis.getDescription()).contains(property);
            assertThat(analysis.getAction()).contains(fix);
        });
    }

    @Test
    void aRealApplicationShouldPrintTheReportInsteadOfAStackTrace(CapturedOutput output) {
        SpringApplication application = new SpringApplication(ZarisOnly.class);
        application.setWebApplicationType(WebApplicationType.NONE);

        assertThatThrownBy(() -> application.run("--zaris.mode=client")).rootCause()
                .isInstanceOfSatisfying(InvalidZarisPropertyException.class,
                        e -> assertThat(e.property()).isEqualTo("zaris.client.seeds"));
        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("Zaris cannot start with the configured value of zaris.client.seeds")
                .contains("Set zaris.client.seeds to the host:port of at least one node's data port");
    }

    @Configuration(proxyBeanMethods = false)
    @EnableCaching
    static class CachingOn {
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(ZarisAutoConfiguration.class)
    static class ZarisOnly {
    }
}
