package io.zaris.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The engine's packages may depend on each other only along the edges listed here: a new import between
 * packages (an upward one, or one that closes a cycle) fails this test, and so does an edge listed here that
 * the code no longer has, so the list shrinks as the known upward edges are removed. Read from the sources:
 * every {@code io.zaris.<package>.} reference outside comments counts, imports and fully qualified names alike.
 */
class PackageDependenciesTests {

    private static final Path SOURCES = Path.of("src", "main", "java", "io", "zaris");
    private static final Pattern REFERENCE = Pattern.compile("io\\.zaris\\.([a-z]+)\\.");

    /**
     * Today's edges. The layering they should have: placement at the bottom; protocol, store and security above
     * it; cluster and replication above those; client, resp and server above; embedded on top. The edges marked
     * "upward" break it and are to be removed (a shared model package and a transport package below both).
     */
    private static final Map<String, Set<String>> ALLOWED = Map.of(
            "placement", Set.of(),
            "protocol", Set.of("placement", "cluster" /* upward: view codec, fingerprint, ownership event */,
                    "replication" /* upward: AckMode */),
            "store", Set.of("protocol" /* upward-ish: request constants, Change, KvStatus */),
            "security", Set.of("protocol"),
            "cluster", Set.of("placement", "protocol", "replication" /* ReplicationSettings */, "security"),
            "replication", Set.of("placement", "protocol", "store", "cluster", "security",
                    "client" /* upward: NodeConnection as the replication transport */),
            "client", Set.of("placement", "protocol", "cluster", "replication", "security"),
            "resp", Set.of("placement", "protocol", "store", "cluster", "security"),
            "server", Set.of("placement", "protocol", "store", "cluster", "replication", "security", "resp",
                    "client" /* upward: NodeConnection for pulls and probes */),
            "embedded", Set.of("placement", "protocol", "store", "cluster", "replication", "security", "resp", "server"));

    @Test
    void packagesDependOnEachOtherOnlyAlongTheListedEdges() throws IOException {
        assertThat(dependencies()).isEqualTo(ALLOWED);
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
