package io.zaris.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every test class says which kind of test it is with exactly one JUnit tag, so that one kind runs alone
 * ({@code -Dgroups=<kind>}): {@code unit} (no cluster, run by {@code mvn test}), {@code in-process-cluster} (nodes
 * inside the test's JVM), {@code multi-process} (server processes started from the jar) and {@code network-bed}
 * (network namespaces, as root). The tag agrees with the plugin that runs the class: {@code *IntegrationTests}
 * run in {@code verify} and are never unit tests; every other test class runs in {@code test} and is one.
 */
@Tag("unit")
class TestKindsTests {

    private static final Path TESTS = Path.of("src", "test", "java");
    private static final Set<String> KINDS = Set.of("unit", "in-process-cluster", "multi-process", "network-bed");
    private static final Pattern TEST_METHOD = Pattern.compile("@(Test|ParameterizedTest|RepeatedTest|TestFactory)\\b");
    private static final Pattern TAG = Pattern.compile("@Tag\\(\"([^\"]*)\"\\)");

    @Test
    void everyTestClassCarriesExactlyOneKindThatAgreesWithItsName() throws IOException {
        Map<String, List<String>> kindsByClass = kindsByTestClass();
        assertThat(kindsByClass).isNotEmpty();
        kindsByClass.forEach((name, kinds) -> {
            assertThat(kinds).as("kind tags of %s", name).hasSize(1);
            assertThat(KINDS).as("kind of %s", name).contains(kinds.get(0));
            assertThat(kinds.get(0).equals("unit")).as("%s is a unit test exactly when it is not an *IntegrationTests", name)
                    .isEqualTo(!name.endsWith("IntegrationTests"));
        });
    }

    private static Map<String, List<String>> kindsByTestClass() throws IOException {
        Map<String, List<String>> kinds = new TreeMap<>();
        try (Stream<Path> files = Files.walk(TESTS)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith("Tests.java")).toList()) {
                String source = Files.readString(file);
                if (!TEST_METHOD.matcher(source).find()) {
                    continue;
                }
                Matcher tag = TAG.matcher(source);
                List<String> found = new ArrayList<>();
                while (tag.find()) {
                    found.add(tag.group(1));
                }
                String path = TESTS.relativize(file).toString();
                kinds.put(path.substring(0, path.length() - ".java".length()), found);
            }
        }
        return kinds;
    }
}
