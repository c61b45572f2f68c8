package io.zaris.sample;

import io.zaris.client.BlockingZarisClient;
import io.zaris.client.ZarisClient;
import java.nio.charset.StandardCharsets;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Text values under {@code /kv/{key}}, stored in Zaris as UTF-8 bytes.
 *
 * <pre>
 * curl -X PUT -d hello localhost:8080/kv/greeting   → {"key":"greeting","version":1}
 * curl localhost:8080/kv/greeting                   → {"key":"greeting","value":"hello","version":1}
 * curl -X DELETE localhost:8080/kv/greeting         → 204, then GET answers 404
 * </pre>
 *
 * Every write gets a new version from the node that owns the key; a reader can tell which write it saw.
 */
@RestController
@RequestMapping("/kv")
class KeyValueController {

    private final BlockingZarisClient zaris;

    KeyValueController(ZarisClient client) {
        // sync() gives blocking calls, which suit a servlet thread; the client itself is asynchronous.
        this.zaris = client.sync();
    }

    @PutMapping(path = "/{key}", consumes = MediaType.ALL_VALUE)
    Written put(@PathVariable("key") String key, @RequestBody String value) {
        long version = zaris.put(key, value.getBytes(StandardCharsets.UTF_8));
        return new Written(key, version);
    }

    @GetMapping("/{key}")
    ResponseEntity<Entry> get(@PathVariable("key") String key) {
        return zaris.get(key)
                .map(stored -> new Entry(key, new String(stored.value(), StandardCharsets.UTF_8), stored.version()))
                .map(ResponseEntity::ok)
                .orElseGet(() -> ResponseEntity.notFound().build());
    }

    @DeleteMapping("/{key}")
    ResponseEntity<Void> delete(@PathVariable("key") String key) {
        return zaris.delete(key) ? ResponseEntity.noContent().build() : ResponseEntity.notFound().build();
    }

    /** Answer to a PUT: the version the write was given. */
    record Written(String key, long version) {
    }

    /** Answer to a GET: the stored text and its version. */
    record Entry(String key, String value, long version) {
    }
}
