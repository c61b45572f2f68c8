package io.zaris.sample;

import io.zaris.spring.template.ZarisTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Counters under {@code /counters/{name}}, through {@link ZarisTemplate#increment}. The increment happens
 * on the node that owns the key, so concurrent callers (in this JVM or any other connected to the cluster)
 * never lose an update.
 *
 * <pre>
 * curl -X POST localhost:8080/counters/visits/increment        → {"name":"visits","value":1}
 * curl -X POST localhost:8080/counters/visits/increment?by=10  → {"name":"visits","value":11}
 * curl localhost:8080/counters/visits                          → {"name":"visits","value":11}
 * </pre>
 */
@RestController
@RequestMapping("/counters")
class CounterController {

    private final ZarisTemplate zaris;

    CounterController(ZarisTemplate zaris) {
        this.zaris = zaris;
    }

    @PostMapping("/{name}/increment")
    Counter increment(@PathVariable("name") String name, @RequestParam(name = "by", defaultValue = "1") long by) {
        return new Counter(name, zaris.increment(counterKey(name), by));
    }

    @GetMapping("/{name}")
    Counter read(@PathVariable("name") String name) {
        return new Counter(name, zaris.counter(counterKey(name)).orElse(0));
    }

    /** Counters get their own key prefix so they never collide with the values of {@code /kv}. */
    private static String counterKey(String name) {
        return "counter:" + name;
    }

    /** The counter's value. */
    record Counter(String name, long value) {
    }
}
