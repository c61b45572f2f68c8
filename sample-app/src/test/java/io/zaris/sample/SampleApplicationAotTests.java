package io.zaris.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplicationAotProcessor;
import org.springframework.context.aot.AbstractAotProcessor;
import org.springframework.util.FileSystemUtils;

/**
 * Boot's AOT processing of the sample application, the same step the spring-boot-maven-plugin's process-aot goal
 * runs (see the {@code aot} profile): it must succeed, generate the application's context initializer, and write
 * the starter's runtime hints into the native image's reachability metadata. No native image is built.
 */
class SampleApplicationAotTests {

    private static final Path OUTPUT = Path.of("target", "aot-test");
    private static final Path METADATA = OUTPUT.resolve(
            Path.of("resources", "META-INF", "native-image", "io.zaris", "sample-app", "reachability-metadata.json"));

    @BeforeAll
    static void processAheadOfTime() throws IOException {
        FileSystemUtils.deleteRecursively(OUTPUT);
        AbstractAotProcessor.Settings settings = AbstractAotProcessor.Settings.builder()
                .sourceOutput(OUTPUT.resolve("sources"))
                .resourceOutput(OUTPUT.resolve("resources"))
                .classOutput(OUTPUT.resolve("classes"))
                .groupId("io.zaris")
                .artifactId("sample-app")
                .build();
        new SpringApplicationAotProcessor(SampleApplication.class, settings, new String[0]).process();
    }

    @Test
    void processingShouldGenerateTheApplicationContextInitializer() throws IOException {
        try (Stream<Path> sources = Files.walk(OUTPUT.resolve("sources"))) {
            assertThat(sources.map(path -> path.getFileName().toString()))
                    .contains("SampleApplication__ApplicationContextInitializer.java");
        }
    }

    @Test
    void theStartersHintsShouldBeInTheReachabilityMetadata() throws IOException {
        String metadata = Files.readString(METADATA);

        assertThat(metadata)
                .as("JGroups' id tables, read as resources")
                .contains("jg-magic-map.xml", "jg-protocol-ids.xml")
                .as("the membership stack's protocols and the classes JGroups creates by id")
                .contains("org.jgroups.protocols.TCP_NIO2", "org.jgroups.protocols.pbcast.GMS",
                        "org.jgroups.stack.IpAddress")
                .as("the cluster secret's token, created by name on the receiving node")
                .contains("io.zaris.cluster.ClusterSecretToken")
                .as("the serial proxy of java.time's values")
                .contains("java.time.Ser");
    }
}
