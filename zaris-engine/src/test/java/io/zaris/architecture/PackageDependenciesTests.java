package io.zaris.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The engine's packages form strict layers: a package may import only packages below it, so there is no cycle
 * and no upward import. {@link #LAYERS} lists them bottom to top with the edges each one has today; a new import
 * between packages fails {@link #packagesDependOnEachOtherOnlyAlongTheListedEdges()}, and so does a listed edge
 * the code no longer has, so the list stays the truth. {@link #everyListedEdgePointsDown()} keeps the list itself
 * free of upward edges. Read from the sources: every {@code io.zaris.<package>.} reference outside comments
 * counts, imports and fully qualified names alike.
 */
@Tag("unit")
class PackageDependenciesTests {

    private static final Path SOURCES = Path.of("src", "main", "java", "io", "zaris");
    private static final Pattern REFERENCE = Pattern.compile("io\\.zaris\\.([a-z]+)\\.");

    /**
     * Bottom to top: each package with the packages it imports, all of them listed before it. The clock and the
     * pure values (placement, then the shared model) at the bottom; the wire format and the store above them; security and
     * the node transport above the protocol; replication above the transport and the store; membership and
     * failover above replication (they read its settings); the client, the Redis front end and the node server
     * above; the embedded cluster on top.
     */
    private static final Map<String, Set<String>> LAYERS = layers(
            "time", Set.of(),
            "placement", Set.of(),
            "model", Set.of("placement"),
            "protocol", Set.of("placement", "model"),
            "store", Set.of("model", "time"),
            "security", Set.of("protocol", "time"),
            "transport", Set.of("time", "model", "protocol", "security"),
            "replication", Set.of("time", "placement", "model", "protocol", "store", "security", "transport"),
            "cluster", Set.of("time", "placement", "model", "protocol", "replication", "security"),
            "client", Set.of("time", "placement", "model", "protocol", "security", "transport"),
            "resp", Set.of("time", "placement", "model", "protocol", "security", "store"),
            "server", Set.of("time", "placement", "model", "protocol", "store", "security", "transport",
                    "replication", "cluster", "resp"),
            "embedded", Set.of("time", "placement", "model", "protocol", "store", "security", "replication",
                    "cluster", "resp", "server"));

    @Test
    void packagesDependOnEachOtherOnlyAlongTheListedEdges() throws IOException {
        assertThat(dependencies()).isEqualTo(new TreeMap<>(LAYERS));
    }

    @Test
    void everyListedEdgePointsDown() {
        List<String> below = new ArrayList<>();
        for (Map.Entry<String, Set<String>> layer : LAYERS.entrySet()) {
            assertThat(below).as("packages below %s", layer.getKey()).containsAll(layer.getValue());
            below.add(layer.getKey());
        }
    }

    @Test
    void everyPackageSaysWhatItIsForInItsPackageInfo() throws IOException {
        for (String name : dependencies().keySet()) {
            Path info = SOURCES.resolve(name).resolve("package-info.java");
            assertThat(info).as("package-info of %s", name).exists();
            assertThat(Files.readString(info)).as("package-info of %s", name).contains("May import");
        }
    }

    private static Map<String, Set<String>> layers(Object... packagesAndImports) {
        Map<String, Set<String>> layers = new LinkedHashMap<>();
        for (int i = 0; i < packagesAndImports.length; i += 2) {
            @SuppressWarnings("unchecked")
            Set<String> imports = (Set<String>) packagesAndImports[i + 1];
            layers.put((String) packagesAndImports[i], new TreeSet<>(imports));
        }
        return layers;
    }

    private static Map<String, Set<String>> dependencies() throws IOException {
        Map<String, Set<String>> edges = new TreeMap<>();
        try (Stream<Path> packages = Files.list(SOURCES)) {
            packages.filter(Files::isDirectory).forEach(directory -> {
                String name = directory.getFileName().toString();
                Set<String> used = new TreeSet<>();
                try (Stream<Path> files = Files.walk(directory)) {
                    files.filter(file -> file.toString().endsWith(".java")).forEach(file -> used.addAll(references(file)));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                used.remove(name);
                edges.put(name, used);
            });
        }
        return edges;
    }

    /** Packages a source file names outside its comments. */
    private static Set<String> references(Path file) {
        Set<String> packages = new TreeSet<>();
        try {
            for (String line : Files.readAllLines(file)) {
                String code = line.strip();
                if (code.startsWith("*") || code.startsWith("/*") || code.startsWith("//")) {
                    continue;
                }
                Matcher matcher = REFERENCE.matcher(code);
                while (matcher.find()) {
                    packages.add(matcher.group(1));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return packages;
    }
}
