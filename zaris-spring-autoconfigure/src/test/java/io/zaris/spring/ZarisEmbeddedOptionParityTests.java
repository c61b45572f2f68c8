package io.zaris.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.server.NodeConfig;
import io.zaris.server.ServerArguments;
import io.zaris.server.ServerOption;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The Spring properties of an embedded cluster cover the server's option catalog ({@link ServerOption}): every
 * option either has a property that defaults as a standalone server does (in the applied configuration, in the IDE
 * metadata and in docs/configuration.md), or is listed below with the reason it is not a property or defaults
 * differently. A new server option fails here until it is given one of the two.
 */
class ZarisEmbeddedOptionParityTests {

    /** How a property's default relates to its server option's. */
    private enum Defaults {
        /** The server's constant default: applied, in the metadata and on the reference page. */
        SAME,
        /** Unset, as the server's option is by default; the property takes the value itself rather than a file. */
        UNSET_LIKE_THE_SERVER,
        /** A default of its own, for the reason given. */
        OWN
    }

    /** A property standing in for a server option; {@code reason} says why its default or form differs. */
    private record Property(String name, Defaults defaults, String reason) {

        static Property same(String name) {
            return new Property(name, Defaults.SAME, null);
        }

        static Property unset(String name, String reason) {
            return new Property(name, Defaults.UNSET_LIKE_THE_SERVER, reason);
        }

        static Property own(String name, String reason) {
            return new Property(name, Defaults.OWN, reason);
        }
    }

    private static final Map<ServerOption, Property> PROPERTIES = Map.ofEntries(
            Map.entry(ServerOption.REPLICATION_FACTOR, Property.same("zaris.embedded.replication-factor")),
            Map.entry(ServerOption.PARTITIONS, Property.same("zaris.embedded.partitions")),
            Map.entry(ServerOption.SEGMENTS, Property.same("zaris.embedded.segments")),
            Map.entry(ServerOption.ACK_MODE, Property.same("zaris.embedded.ack-mode")),
            Map.entry(ServerOption.MIN_SYNC_REPLICAS, Property.same("zaris.embedded.min-sync-replicas")),
            Map.entry(ServerOption.JOIN_SETTLE_DELAY, Property.same("zaris.embedded.join-settle-delay")),
            Map.entry(ServerOption.MAX_CONCURRENT_MOVES, Property.same("zaris.embedded.max-concurrent-moves")),
            Map.entry(ServerOption.EVICTION_POLICY, Property.same("zaris.embedded.eviction-policy")),
            Map.entry(ServerOption.LOGIN_TIMEOUT, Property.same("zaris.security.login-timeout")),
            Map.entry(ServerOption.CLUSTER_SIZE, Property.own("zaris.embedded.nodes",
                    "the embedded cluster's size is its node count (3), not a seed count")),
            Map.entry(ServerOption.RESP_PORT, Property.own("zaris.embedded.resp.port",
                    "RESP is off unless zaris.embedded.resp.enabled, then on ephemeral ports unless a base port is set")),
            Map.entry(ServerOption.MAX_MEMORY, Property.own("zaris.embedded.max-memory",
                    "the nodes share the application's heap: each gets the default share divided by their number")),
            Map.entry(ServerOption.PASSWORD_FILE, Property.unset("zaris.security.password",
                    "the password itself rather than a file")),
            Map.entry(ServerOption.CLUSTER_SECRET_FILE, Property.unset("zaris.cluster.secret",
                    "the secret itself rather than a file")),
            Map.entry(ServerOption.TLS_CERT, Property.unset("zaris.tls.certificate-chain", "a file name, like the server's option")),
            Map.entry(ServerOption.TLS_KEY, Property.unset("zaris.tls.private-key", "a file name, like the server's option")),
            Map.entry(ServerOption.TLS_KEYSTORE, Property.unset("zaris.tls.key-store", "a file name, like the server's option")),
            Map.entry(ServerOption.TLS_KEYSTORE_PASSWORD_FILE, Property.unset("zaris.tls.key-store-password",
                    "the password itself rather than a file")),
            Map.entry(ServerOption.TLS_CA, Property.unset("zaris.tls.trusted-certificates", "a file name, like the server's option")),
            Map.entry(ServerOption.TLS_TRUSTSTORE, Property.unset("zaris.tls.trust-store", "a file name, like the server's option")),
            Map.entry(ServerOption.TLS_TRUSTSTORE_PASSWORD_FILE, Property.unset("zaris.tls.trust-store-password",
                    "the password itself rather than a file")));

    private static final String NOT_EMBEDDED = "no place in an embedded cluster (EmbeddedClusterOptionParityTests"
            + " gives the reason)";
    private static final String CUSTOMIZER = "not a property: tuning for standalone clusters; an"
            + " EmbeddedClusterCustomizer bean sets it on the builder";

    /** Server options that are not Spring properties, each with the reason. */
    private static final Map<ServerOption, String> NOT_PROPERTIES = Map.ofEntries(
            Map.entry(ServerOption.HOST, "embedded nodes bind loopback (127.0.0.1); an EmbeddedClusterCustomizer may"
                    + " pick another loopback address"),
            Map.entry(ServerOption.EVICTION_DELAY, CUSTOMIZER + " (replication(...))"),
            Map.entry(ServerOption.HEAL_COOLDOWN, CUSTOMIZER + " (replication(...))"),
            Map.entry(ServerOption.ASYNC_FLUSH_DELAY, CUSTOMIZER + " (replication(...))"),
            Map.entry(ServerOption.REPLICA_BACKLOG, CUSTOMIZER + " (replication(...))"),
            Map.entry(ServerOption.RESP_MAX_BULK_BYTES, CUSTOMIZER + " (respLimits(...))"),
            Map.entry(ServerOption.RESP_MAX_ARGS, CUSTOMIZER + " (respLimits(...))"),
            Map.entry(ServerOption.RESP_MAX_INLINE_BYTES, CUSTOMIZER + " (respLimits(...))"),
            Map.entry(ServerOption.RESP_LINGER_QUIET, CUSTOMIZER + " (respLinger(...))"),
            Map.entry(ServerOption.RESP_LINGER_MAX, CUSTOMIZER + " (respLinger(...))"),
            Map.entry(ServerOption.MAX_KEY_BYTES, CUSTOMIZER + " (limits(...))"),
            Map.entry(ServerOption.MAX_VALUE_BYTES, CUSTOMIZER + " (limits(...))"),
            Map.entry(ServerOption.MAX_FRAME_BYTES, CUSTOMIZER + " (limits(...))"),
            Map.entry(ServerOption.USERS_FILE, "zaris.security.username names the one user besides the shared"
                    + " password's"),
            Map.entry(ServerOption.NODE_ID, NOT_EMBEDDED),
            Map.entry(ServerOption.CONFIG, "Spring's own configuration replaces the file"),
            Map.entry(ServerOption.PORT, NOT_EMBEDDED),
            Map.entry(ServerOption.ADVERTISE_HOST, NOT_EMBEDDED),
            Map.entry(ServerOption.ADVERTISE_PORT, NOT_EMBEDDED),
            Map.entry(ServerOption.CLUSTER_HOST, NOT_EMBEDDED),
            Map.entry(ServerOption.CLUSTER_PORT, NOT_EMBEDDED),
            Map.entry(ServerOption.CLUSTER_ADVERTISE_HOST, NOT_EMBEDDED),
            Map.entry(ServerOption.CLUSTER_ADVERTISE_PORT, NOT_EMBEDDED),
            Map.entry(ServerOption.SEEDS, NOT_EMBEDDED),
            Map.entry(ServerOption.DISCOVERY, NOT_EMBEDDED),
            Map.entry(ServerOption.DNS_SERVER, NOT_EMBEDDED),
            Map.entry(ServerOption.ESCALATION_TIMEOUT, NOT_EMBEDDED),
            Map.entry(ServerOption.CLUSTER_NAME, NOT_EMBEDDED),
            Map.entry(ServerOption.RESP_HOST, NOT_EMBEDDED),
            Map.entry(ServerOption.RESP_ADVERTISE_PORT, NOT_EMBEDDED),
            Map.entry(ServerOption.HTTP_PORT, "the application's actuator serves health and metrics"),
            Map.entry(ServerOption.HTTP_HOST, "the application's actuator serves health and metrics"),
            Map.entry(ServerOption.ALLOW_INSECURE, NOT_EMBEDDED),
            Map.entry(ServerOption.DRAIN_ON_STOP, NOT_EMBEDDED),
            Map.entry(ServerOption.IO_THREADS, "JVM-wide: ZARIS_IO_THREADS or the zaris.io-threads system property"));

    @Test
    void everyServerOptionIsAPropertyOrListedWithAReason() {
        Set<ServerOption> listed = EnumSet.copyOf(PROPERTIES.keySet());
        for (ServerOption option : NOT_PROPERTIES.keySet()) {
            assertThat(listed.add(option)).as("%s is listed once", option.flag()).isTrue();
        }
        assertThat(listed).as("server options neither mapped to a zaris.* property nor excluded with a reason")
                .containsExactlyInAnyOrderElementsOf(ServerOption.current());
    }

    @Test
    void everyMappedPropertyHasMetadataAndTheServersDefaultThere() throws IOException {
        Map<String, JsonNode> metadata = generatedMetadata();
        PROPERTIES.forEach((option, property) -> {
            assertThat(metadata).as("metadata of %s (for %s)", property.name(), option.flag()).containsKey(property.name());
            JsonNode documented = metadata.get(property.name()).get("defaultValue");
            if (property.defaults() == Defaults.SAME) {
                assertThat(documented).as("metadata default of %s", property.name()).isNotNull();
                assertThat(documented.asString().toLowerCase(Locale.ROOT))
                        .as("metadata default of %s", property.name()).isEqualTo(option.defaultValue().value());
            }
        });
    }

    @Test
    void theDefaultPropertiesApplyTheServersDefaults() {
        NodeConfig server = ServerArguments.parse(new String[] {"--node-id", "n1"});
        NodeConfig embedded = ZarisAutoConfiguration.embeddedCluster(new ZarisProperties()).nodeConfig(1);
        PROPERTIES.forEach((option, property) -> {
            if (property.defaults() != Defaults.OWN && option.landsOnNodeConfig()) {
                assertThat(option.valueIn(embedded)).as("%s's default, as %s applies it", option.flag(), property.name())
                        .isEqualTo(option.valueIn(server));
            }
        });
    }

    @Test
    void theReferencePageDocumentsEachPropertyWithTheServersDefault() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("..", "docs", "configuration.md"));
        PROPERTIES.forEach((option, property) -> {
            String row = lines.stream().filter(line -> line.startsWith("| `" + property.name() + "`")
                    || line.contains("`" + property.name() + "` / ") || line.contains(" / `" + property.name() + "` |"))
                    .findFirst().orElse(null);
            assertThat(row).as("docs/configuration.md has a row for %s", property.name()).isNotNull();
            if (property.defaults() == Defaults.SAME) {
                assertThat(row).as("documented default of %s", property.name())
                        .contains(" | " + option.defaultValue().inReference() + " | ");
            }
        });
    }

    private static Map<String, JsonNode> generatedMetadata() throws IOException {
        try (InputStream in = ZarisEmbeddedOptionParityTests.class
                .getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("generated configuration metadata").isNotNull();
            JsonNode properties = new ObjectMapper().readTree(new String(in.readAllBytes(), StandardCharsets.UTF_8))
                    .get("properties");
            Map<String, JsonNode> byName = new HashMap<>();
            properties.forEach(property -> byName.put(property.get("name").asString(), property));
            return byName;
        }
    }
}
