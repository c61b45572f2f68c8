package io.zaris.sample;

import io.zaris.spring.template.CasOutcome;
import io.zaris.spring.template.ZarisTemplate;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Text values under {@code /kv/{key}}, stored through {@link ZarisTemplate}.
 *
 * <pre>
 * curl -X PUT -d hello localhost:8080/kv/greeting                  → {"key":"greeting","version":1}
 * curl localhost:8080/kv/greeting                                  → {"key":"greeting","value":"hello","version":1}
 * curl -X PUT -H 'If-Match: 1' -d hi localhost:8080/kv/greeting    → 200, new version (compare-and-set)
 * curl -X PUT -H 'If-Match: 1' -d again localhost:8080/kv/greeting → 412 {"key":"greeting","currentVersion":2}
 * curl -X DELETE localhost:8080/kv/greeting                        → 204, then GET answers 404
 * </pre>
 *
 * Every write gets a new version from the node that owns the key. With {@code If-Match} the write is a
 * compare-and-set: it happens only if nobody wrote since the version the caller read; a conflict is
 * answered with 412 and the current version, and is never retried behind the caller's back.
 */
@RestController
@RequestMapping("/kv")
class KeyValueController {

    private final ZarisTemplate zaris;

    KeyValueController(ZarisTemplate zaris) {
        this.zaris = zaris;
    }

    @PutMapping(path = "/{key}", consumes = MediaType.ALL_VALUE)
    ResponseEntity<?> put(@PathVariable("key") String key, @RequestBody String value,
                          @RequestHeader(name = "If-Match", required = false) Long expectedVersion) {
        if (expectedVersion == null) {
            return ResponseEntity.ok(new Written(key, zaris.put(key, value)));
        }
        CasOutcome outcome = zaris.compareAndSet(key, value, expectedVersion, null);
        if (outcome.isConflict()) {
            return ResponseEntity.status(HttpStatus.PRECONDITION_FAILED).body(new Conflict(key, outcome.version()));
        }
        return ResponseEntity.ok(new Written(key, outcome.version()));
    }

    @GetMapping("/{key}")
    ResponseEntity<Entry> get(@PathVariable("key") String key) {
        return zaris.getVersioned(key, String.class)
                .map(stored -> new Entry(key, stored.value(), stored.version()))
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

    /** Answer to a conditional PUT that lost: the version it must re-read ({@code 0}: the key is gone). */
    record Conflict(String key, long currentVersion) {
    }
}
