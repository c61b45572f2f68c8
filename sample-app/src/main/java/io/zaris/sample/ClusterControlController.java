package io.zaris.sample;

import io.zaris.spring.ZarisEmbeddedClusterLifecycle;
import java.util.Map;
import java.util.function.Consumer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Stops and restarts embedded nodes for the live cluster page ({@code /cluster.html}), so a user can watch a
 * failover and the heal. Embedded mode only (in client mode there is no node here to stop: 409). A demo
 * control: an application must not offer it to the network it serves.
 *
 * <pre>
 * curl -X POST localhost:8080/cluster/nodes/node-2/stop
 * curl -X POST localhost:8080/cluster/nodes/node-2/restart
 * </pre>
 */
@RestController
@RequestMapping("/cluster/nodes")
class ClusterControlController {

    private final ObjectProvider<ZarisEmbeddedClusterLifecycle> embeddedCluster;

    ClusterControlController(ObjectProvider<ZarisEmbeddedClusterLifecycle> embeddedCluster) {
        this.embeddedCluster = embeddedCluster;
    }

    @PostMapping("/{id}/stop")
    ResponseEntity<Map<String, String>> stop(@PathVariable("id") String id) {
        return control(id, "stopped", lifecycle -> lifecycle.cluster().stopNode(id));
    }

    @PostMapping("/{id}/restart")
    ResponseEntity<Map<String, String>> restart(@PathVariable("id") String id) {
        return control(id, "restarted", lifecycle -> lifecycle.cluster().restartNode(id));
    }

    private ResponseEntity<Map<String, String>> control(String id, String done,
            Consumer<ZarisEmbeddedClusterLifecycle> action) {
        ZarisEmbeddedClusterLifecycle lifecycle = embeddedCluster.getIfAvailable();
        if (lifecycle == null) {
            return ResponseEntity.status(HttpStatus.CONFLICT)
                    .body(Map.of("error", "client mode: no embedded node runs in this application"));
        }
        try {
            action.accept(lifecycle);
        } catch (IllegalArgumentException e) {
            return ResponseEntity.status(HttpStatus.NOT_FOUND).body(Map.of("error", e.getMessage()));
        } catch (IllegalStateException e) {
            return ResponseEntity.status(HttpStatus.CONFLICT).body(Map.of("error", e.getMessage()));
        }
        return ResponseEntity.ok(Map.of("node", id, "state", done));
    }
}
