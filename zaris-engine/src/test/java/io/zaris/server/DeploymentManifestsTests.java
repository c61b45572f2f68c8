package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.cluster.MembershipConfig;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The deployment kit ({@code deploy/}) agrees with the server: the Kubernetes manifests, rendered offline with
 * {@code kubectl kustomize}, and the Compose file configure nodes the server's own parser accepts, on the ports
 * the manifests expose and probe, at probe paths the HTTP endpoint serves, with a grace period longer than the
 * drain and a heap inside the memory limit. Nothing here runs a container: this machine has no container engine.
 */
@Tag("unit")
class DeploymentManifestsTests {

    private static final Path DEPLOY = Path.of("..", "deploy");
    /** What the downward API and the secret would fill in. */
    private static final Map<String, String> POD = Map.of("POD_NAME", "zaris-0", "POD_NAMESPACE", "shop",
            "POD_IP", "10.244.1.7");
    private static final Pattern REFERENCE = Pattern.compile("\\$\\(([A-Z_]+)\\)");

    @Test
    @SuppressWarnings("unchecked")
    void theKubernetesManifestsConfigureNodesTheServerAccepts() throws Exception {
        List<Map<String, Object>> objects = renderKustomization();
        Map<String, Object> statefulSet = only(objects, "StatefulSet");
        Map<String, Object> headless = named(objects, "Service", "zaris-peers");
        Map<String, Object> client = named(objects, "Service", "zaris-client");
        only(objects, "PodDisruptionBudget");
        assertThat(objects).noneMatch(object -> "Service".equals(object.get("kind"))
                && "zaris".equals(((Map<String, Object>) object.get("metadata")).get("name")));

        Map<String, Object> podSpec = (Map<String, Object>) path(statefulSet, "spec", "template", "spec");
        assertThat(podSpec.get("enableServiceLinks")).isEqualTo(false);
        assertThat(path(statefulSet, "spec", "podManagementPolicy")).isEqualTo("Parallel");
        assertThat(podSpec).containsKey("affinity");
        Map<String, Object> container = ((List<Map<String, Object>>) podSpec.get("containers")).get(0);

        Map<String, String> environment = new HashMap<>();
        for (Map<String, Object> variable : (List<Map<String, Object>>) container.get("env")) {
            String name = (String) variable.get("name");
            String value = variable.containsKey("value") ? String.valueOf(variable.get("value"))
                    : POD.getOrDefault(name, "a-secret-of-at-least-16-characters");
            environment.put(name, expand(value, environment));
            if (name.startsWith("ZARIS_") && !name.equals(ServerArguments.PASSWORD_VARIABLE)
                    && !name.equals(ServerArguments.CLUSTER_SECRET_VARIABLE)) {
                assertThat(ServerOption.values()).as("%s is a server option's variable", name)
                        .anyMatch(option -> option.environmentVariable().equals(name) && option.deprecatedFor().isEmpty());
            }
        }
        ServerArguments.Launch launch = ServerArguments.launch(new String[0], environment, path -> {
            throw new IOException("the manifests name no files");
        });
        NodeConfig node = launch.node();
        MembershipConfig.Tcp membership = (MembershipConfig.Tcp) node.membership();
        assertThat(node.nodeId()).isEqualTo("zaris-0");
        assertThat(node.advertisedAddress(node.port()).host()).isEqualTo("10.244.1.7");
        assertThat(membership.dns().query()).isEqualTo(path(headless, "metadata", "name") + ".shop.svc.cluster.local");
        assertThat(launch.warnings()).isEmpty();
        assertThat(ServerArguments.isInsecure(node)).isFalse();

        Map<String, Integer> containerPorts = new HashMap<>();
        for (Map<String, Object> port : (List<Map<String, Object>>) container.get("ports")) {
            containerPorts.put((String) port.get("name"), (Integer) port.get("containerPort"));
        }
        assertThat(containerPorts).containsEntry("data", node.port()).containsEntry("cluster", membership.bindPort())
                .containsEntry("resp", node.resp().port()).containsEntry("http", launch.http().port());
        assertThat(path(headless, "spec", "clusterIP")).isEqualTo("None");
        assertThat(path(headless, "spec", "publishNotReadyAddresses")).isEqualTo(true);
        for (Map<String, Object> port : (List<Map<String, Object>>) path(headless, "spec", "ports")) {
            assertThat(containerPorts).containsEntry((String) port.get("name"), (Integer) port.get("port"));
        }
        for (Map<String, Object> port : (List<Map<String, Object>>) path(client, "spec", "ports")) {
            assertThat(containerPorts).containsKey((String) port.get("targetPort"));
        }

        assertThat(path(container, "readinessProbe", "httpGet", "path")).isEqualTo(NodeHttpEndpoint.READY_PATH);
        assertThat(path(container, "livenessProbe", "httpGet", "path")).isEqualTo(NodeHttpEndpoint.LIVE_PATH);
        assertThat(path(container, "startupProbe", "httpGet", "path")).isEqualTo(NodeHttpEndpoint.LIVE_PATH);
        for (String probe : List.of("readinessProbe", "livenessProbe", "startupProbe")) {
            assertThat(containerPorts).containsKey((String) path(container, probe, "httpGet", "port"));
        }

        long grace = ((Number) podSpec.get("terminationGracePeriodSeconds")).longValue();
        assertThat(Duration.ofSeconds(grace)).isGreaterThan(launch.drainOnStop().plusSeconds(10));

        long limit = memoryBytes((String) path(container, "resources", "limits", "memory"));
        long heap = heapBytes(environment.get("JAVA_OPTS"));
        assertThat(heap).isLessThanOrEqualTo(limit * 6 / 10);
        assertThat(io.zaris.store.MemoryOptions.parseSize(environment.get("ZARIS_MAX_MEMORY"), heap)).isLessThan(heap);
        assertThat(path(podSpec, "securityContext", "runAsNonRoot")).isEqualTo(true);
    }

    @Test
    @SuppressWarnings("unchecked")
    void theComposeFileConfiguresThreeNodesTheServerAccepts() throws IOException {
        Map<String, Object> compose = new Yaml().load(Files.readString(DEPLOY.resolve("compose.yaml")));
        Map<String, Map<String, Object>> services = (Map<String, Map<String, Object>>) compose.get("services");
        assertThat(services).hasSize(3);
        for (Map.Entry<String, Map<String, Object>> service : services.entrySet()) {
            Map<String, String> environment = new HashMap<>();
            ((Map<String, Object>) service.getValue().get("environment")).forEach((name, value) -> environment.put(name,
                    String.valueOf(value).startsWith("${") ? "a-secret-of-at-least-16-characters" : String.valueOf(value)));
            ServerArguments.Launch launch = ServerArguments.launch(new String[0], environment, path -> {
                throw new IOException("compose names no files");
            });
            assertThat(launch.node().nodeId()).isEqualTo(service.getKey());
            assertThat(launch.node().advertisedAddress(7101).host()).isEqualTo(service.getKey());
            assertThat(((MembershipConfig.Tcp) launch.node().membership()).seeds()).hasSize(3);
            assertThat(launch.http()).isNull(); // the image sets ZARIS_HTTP_PORT
            Duration grace = Duration.ofSeconds(Long.parseLong(((String) service.getValue().get("stop_grace_period"))
                    .replace("s", "")));
            assertThat(grace).isGreaterThan(launch.drainOnStop());
        }
        String dockerfile = Files.readString(DEPLOY.resolve("Dockerfile"));
        assertThat(dockerfile).contains("USER 10001").contains("ZARIS_HTTP_PORT=9101").contains("EXPOSE 7101 7201 8101 9101")
                .contains("exec java");
    }

    private static List<Map<String, Object>> renderKustomization() throws Exception {
        Assumptions.assumeTrue(new File("/usr/bin/kubectl").canExecute() || new File("/usr/local/bin/kubectl").canExecute(),
                "kubectl is not installed: the manifests are rendered with kubectl kustomize");
        Process process = new ProcessBuilder("kubectl", "kustomize", DEPLOY.resolve("kubernetes").toString())
                .redirectErrorStream(true).start();
        String rendered = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(rendered).isZero();
        List<Map<String, Object>> objects = new ArrayList<>();
        for (Object document : new Yaml().loadAll(rendered)) {
            objects.add(castMap(document));
        }
        return objects;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Object document) {
        return (Map<String, Object>) document;
    }

    private static Map<String, Object> only(List<Map<String, Object>> objects, String kind) {
        List<Map<String, Object>> found = objects.stream().filter(object -> kind.equals(object.get("kind"))).toList();
        assertThat(found).as(kind).hasSize(1);
        return found.get(0);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> named(List<Map<String, Object>> objects, String kind, String name) {
        return objects.stream().filter(object -> kind.equals(object.get("kind"))
                        && name.equals(((Map<String, Object>) object.get("metadata")).get("name")))
                .findFirst().orElseThrow(() -> new AssertionError("no " + kind + " " + name));
    }

    @SuppressWarnings("unchecked")
    private static Object path(Map<String, Object> object, String... keys) {
        Object current = object;
        for (String key : keys) {
            assertThat(current).as("%s in %s", key, String.join(".", keys)).isInstanceOf(Map.class);
            current = ((Map<String, Object>) current).get(key);
        }
        return current;
    }

    /** Kubernetes' {@code $(NAME)} references to variables defined before. */
    private static String expand(String value, Map<String, String> defined) {
        Matcher reference = REFERENCE.matcher(value);
        StringBuilder expanded = new StringBuilder();
        while (reference.find()) {
            String name = reference.group(1);
            String replacement = defined.containsKey(name) ? defined.get(name) : POD.get(name);
            assertThat(replacement).as("$(%s) is defined", name).isNotNull();
            reference.appendReplacement(expanded, Matcher.quoteReplacement(replacement));
        }
        reference.appendTail(expanded);
        return expanded.toString();
    }

    private static long memoryBytes(String quantity) {
        Matcher matcher = Pattern.compile("(\\d+)(Mi|Gi)").matcher(quantity);
        assertThat(matcher.matches()).as(quantity).isTrue();
        return Long.parseLong(matcher.group(1)) << (matcher.group(2).equals("Gi") ? 30 : 20);
    }

    private static long heapBytes(String javaOptions) {
        Matcher matcher = Pattern.compile("-Xmx(\\d+)([mg])").matcher(javaOptions);
        assertThat(matcher.find()).as(javaOptions).isTrue();
        return Long.parseLong(matcher.group(1)) << (matcher.group(2).equals("g") ? 30 : 20);
    }
}
