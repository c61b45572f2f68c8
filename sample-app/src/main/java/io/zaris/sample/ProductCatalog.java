package io.zaris.sample;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.cache.annotation.CacheEvict;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Service;

/**
 * A deliberately slow product lookup (think: a remote pricing service), cached in Zaris.
 *
 * <p>{@code @Cacheable("products")} stores each answer under {@code products::<id>} in the cluster for the
 * time to live set in {@code application.yml} ({@code zaris.cache.caches.products.time-to-live}). The
 * first request for an id waits for the lookup; later ones, from this instance or any other connected to
 * the same cluster, are served from Zaris. {@code sync = true}: concurrent misses for one id in this JVM
 * share one lookup.
 */
@Service
class ProductCatalog {

    private final Duration lookupDelay;
    private final AtomicLong lookups = new AtomicLong();

    ProductCatalog(@Value("${sample.catalog.lookup-delay:500ms}") Duration lookupDelay) {
        this.lookupDelay = lookupDelay;
    }

    @Cacheable(cacheNames = "products", sync = true)
    public Product find(String id) {
        lookups.incrementAndGet();
        try {
            TimeUnit.MILLISECONDS.sleep(lookupDelay.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while looking up product " + id, e);
        }
        BigDecimal price = BigDecimal.valueOf(Math.floorMod(id.hashCode(), 10_000), 2);
        return new Product(id, "Product " + id, price, Instant.now());
    }

    /** Drops the cached answer, so the next request looks the product up again. */
    @CacheEvict(cacheNames = "products")
    public void forget(String id) {
    }

    /** How many slow lookups this instance has made. */
    long lookups() {
        return lookups.get();
    }
}
