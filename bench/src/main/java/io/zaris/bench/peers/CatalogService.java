package io.zaris.bench.peers;

import java.util.concurrent.atomic.LongAdder;
import org.springframework.cache.annotation.Cacheable;

/** The cached method the Spring rows call: a 100-character value per id, and a count of real loads. */
public class CatalogService {

    static final String CACHE = "catalog";
    private static final String VALUE = "x".repeat(100);

    private final LongAdder loads = new LongAdder();

    @Cacheable(CACHE)
    public String describe(String id) {
        loads.increment();
        return VALUE;
    }

    long loads() {
        return loads.sum();
    }
}
