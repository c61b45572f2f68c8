package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.security.Principal;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The standalone server's password, users and safe-binding options (files and environment injected). */
@Tag("unit")
class ServerSecurityArgumentsTests {

    private static final Map<String, List<String>> FILES = Map.of(
            "pass.txt", List.of("s3cret", "ignored second line"),
            "users.txt", List.of("app read-write app-pass", "reports read-only r"),
            "empty.txt", List.of());

    @Test
    void withoutAPasswordTheNodeNeedsNoLoginAndStaysOnLoopback() {
        NodeConfig config = parse(Map.of(), "--node-id", "n1");
        assertThat(config.security().requiresAuthentication()).isFalse();
        assertThat(ServerArguments.isInsecure(config)).isFalse();
    }

    @Test
    void passwordFileAndUsersFileConfigureLogins() {
        NodeConfig config = parse(Map.of(), "--node-id", "n1", "--password-file", "pass.txt", "--users-file", "users.txt");
        assertThat(config.security().requiresAuthentication()).isTrue();
        assertThat(config.security().users().authenticate("default", bytes("s3cret"))).isNotNull();
        assertThat(config.security().users().authenticate("reports", bytes("r")))
                .isEqualTo(new Principal("reports", true, false));
        assertThat(config.security().nodeCredentials().password()).isEqualTo("s3cret");
    }

    private static final String CLUSTER_SECRET = "a-cluster-secret-of-32-characters";

    @Test
    void passwordMayComeFromTheEnvironment() {
        NodeConfig config = parse(Map.of("ZARIS_PASSWORD", "from-env", "ZARIS_CLUSTER_SECRET", CLUSTER_SECRET),
                "--node-id", "n1", "--host", "0.0.0.0", "--advertise-host", "10.0.0.5");
        assertThat(config.security().users().authenticate("default", bytes("from-env"))).isNotNull();
        assertThat(ServerArguments.isInsecure(config)).isFalse();
    }

    @Test
    void refusesANonLoopbackAddressWithoutAPassword() {
        assertThatThrownBy(() -> parse(Map.of(), "--node-id", "n1", "--host", "0.0.0.0"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("refusing to serve 0.0.0.0 without a password")
                .hasMessageContaining("--allow-insecure");
        assertThatThrownBy(() -> parse(Map.of(), "--node-id", "n1", "--resp-host", "0.0.0.0"))
                .hasMessageContaining("refusing to serve 0.0.0.0");
    }

    @Test
    void allowInsecureBindsAnywayAndIsReportedInsecure() {
        NodeConfig config = parse(Map.of(), "--node-id", "n1", "--host", "0.0.0.0", "--advertise-host", "10.0.0.5",
                "--allow-insecure");
        assertThat(config.host()).isEqualTo("0.0.0.0");
        assertThat(ServerArguments.isInsecure(config)).isTrue();
    }

    @Test
    void refusesANonLoopbackMembershipPortWithoutAClusterSecret() {
        assertThatThrownBy(() -> parse(Map.of(), "--node-id", "n1", "--cluster-host", "0.0.0.0"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("refusing to open the membership port on 0.0.0.0 without a cluster secret")
                .hasMessageContaining("--cluster-secret-file or ZARIS_CLUSTER_SECRET")
                .hasMessageContaining("--allow-insecure");
    }

    @Test
    void aPasswordDoesNotProtectMembership() {
        // --cluster-host defaults to --host: a password covers the data and RESP ports, not who may join.
        assertThatThrownBy(() -> parse(Map.of("ZARIS_PASSWORD", "from-env"), "--node-id", "n1", "--host", "0.0.0.0"))
                .hasMessageContaining("refusing to open the membership port on 0.0.0.0 without a cluster secret");
        NodeConfig loopbackMembership = parse(Map.of("ZARIS_PASSWORD", "from-env"), "--node-id", "n1",
                "--host", "0.0.0.0", "--advertise-host", "10.0.0.5", "--cluster-host", "127.0.0.1");
        assertThat(ServerArguments.isInsecure(loopbackMembership)).isFalse();
    }

    @Test
    void aClusterSecretLetsMembershipBindAnyAddress() {
        NodeConfig fromEnvironment = parse(Map.of("ZARIS_CLUSTER_SECRET", CLUSTER_SECRET), "--node-id", "n1",
                "--cluster-host", "0.0.0.0", "--cluster-advertise-host", "10.0.0.5");
        assertThat(ServerArguments.isInsecure(fromEnvironment)).isFalse();
        assertThat(ZarisServerMain.insecureWarning(fromEnvironment)).isEmpty();
        // The data port still needs a password of its own.
        assertThatThrownBy(() -> parse(Map.of("ZARIS_CLUSTER_SECRET", CLUSTER_SECRET), "--node-id", "n1",
                "--host", "0.0.0.0"))
                .hasMessageContaining("refusing to serve 0.0.0.0 without a password");
    }

    @Test
    void allowInsecureOpensMembershipWithABoxedWarningNamingIt() {
        NodeConfig config = parse(Map.of(), "--node-id", "n1", "--cluster-host", "0.0.0.0", "--cluster-advertise-host",
                "10.0.0.5", "--allow-insecure");
        assertThat(ServerArguments.isInsecure(config)).isTrue();
        List<String> warning = ZarisServerMain.insecureWarning(config);
        assertThat(warning).first().asString().startsWith("*****");
        assertThat(warning).last().asString().startsWith("*****");
        assertThat(warning).contains("INSECURE (--allow-insecure): node n1 opens",
                "  the membership port on 0.0.0.0 without a cluster secret");
        assertThat(warning).noneMatch(line -> line.contains("data port") || line.contains("read and change every key"));
        assertThat(warning).contains("Anyone who can reach its membership port can join the cluster and be handed partitions"
                + " and their data.");
    }

    @Test
    void theWarningNamesEveryUnprotectedPort() {
        NodeConfig config = parse(Map.of(), "--node-id", "n1", "--host", "0.0.0.0", "--advertise-host", "10.0.0.5",
                "--resp-port", "8101", "--allow-insecure");
        assertThat(ZarisServerMain.insecureWarning(config)).contains("  the data port on 0.0.0.0 without a password",
                "  the RESP port on 0.0.0.0 without a password", "  the membership port on 0.0.0.0 without a cluster secret");
        assertThat(ZarisServerMain.insecureWarning(parse(Map.of(), "--node-id", "n1"))).isEmpty();
    }

    @Test
    void badSecurityInputIsNamed() {
        assertThatThrownBy(() -> parse(Map.of(), "--node-id", "n1", "--users-file", "users.txt"))
                .hasMessageContaining("--users-file needs a shared password");
        assertThatThrownBy(() -> parse(Map.of(), "--node-id", "n1", "--password-file", "empty.txt"))
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> parse(Map.of(), "--node-id", "n1", "--password-file", "missing.txt"))
                .hasMessageContaining("--password-file missing.txt cannot be read");
        assertThatThrownBy(() -> parse(Map.of("ZARIS_PASSWORD", ""), "--node-id", "n1"))
                .hasMessageContaining("ZARIS_PASSWORD is set but empty");
    }

    private static NodeConfig parse(Map<String, String> environment, String... args) {
        return ServerArguments.parse(args, environment, path -> {
            List<String> lines = FILES.get(path);
            if (lines == null) {
                throw new IOException("no such file");
            }
            return lines;
        });
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
