package io.zaris.sample;

import io.zaris.client.BlockingZarisClient;
import io.zaris.client.ZarisClient;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Counters under {@code /counters/{name}}. The increment happens on the node that owns the key, so
 * concurrent callers (in this JVM or any other connected to the cluster) never lose an update.
 *
 * <pre>
 * curl -X POST localhost:8080/counters/visits/increment        → {"name":"visits","value":1}
 * curl -X POST localhost:8080/counters/visits/increment?by=10  → {"name":"visits","value":11}
 * </pre>
 */
@RestController
@RequestMapping("/counters")
class CounterController {

    private final BlockingZarisClient zaris;

    CounterController(ZarisClient client) {
        this.zaris = client.sync();
    }

    @PostMapping("/{name}/increment")
    Counter increment(@PathVariable("name") String name, @RequestParam(name = "by", defaultValue = "1") long by) {
        return new Counter(name, zaris.increment(counterKey(name), by));
    }

    /** Counters get their own key prefix so they never collide with the text values of {@code /kv}. */
    private static String counterKey(String name) {
        return "counter:" + name;
    }

    /** The counter's value after the increment. */
    record Counter(String name, long value) {
    }
}
