package io.zaris.spring.cache;

import io.zaris.client.ZarisClient;
import io.zaris.spring.EntrySizeSample;
import io.zaris.spring.observation.ZarisOperationObserver;
import io.zaris.spring.serialization.ZarisSerializer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import org.springframework.cache.CacheManager;

/**
 * A {@link CacheManager} whose caches are {@link ZarisCache}s sharing one client and serializer.
 *
 * <p>Caches named at construction exist from the start; any other name is created on first use, with
 * its entry in the per-cache configurations or else the defaults. A cache whose configuration names its own
 * serializer uses that one, the others the manager's. {@link #builder} builds one in code (and is what a
 * {@link ZarisCacheManagerBuilderCustomizer} adjusts). A listener set with
 * {@link #setCacheCreationListener} hears about every cache created after it was set (Boot's cache
 * metrics use it to bind caches that appear after start-up).
 *
 * <p>Asynchronous cache results ({@code retrieve}) complete on the common fork-join pool, never on the
 * client's network threads (see {@link ZarisCache}).
 *
 * <p><b>Concurrency.</b> {@code caches} is a concurrent map and a name is created at most once; the
 * listener runs on the thread that created the cache, outside any lock.
 */
public class ZarisCacheManager implements CacheManager {

    private final ZarisClient client;
    private final ZarisSerializer serializer;
    private final String keyPrefix;
    private final ZarisCacheConfiguration defaults;
    private final Map<String, ZarisCacheConfiguration> configurations;
    private final String leaseOwner = "zaris-cache-" + UUID.randomUUID();
    private final DoubleSupplier random;
    private final Executor asyncExecutor;
    private final EntrySizeSample entrySizes;
    private final Clock clock;
    private final ZarisOperationObserver observer;
    private final ConcurrentHashMap<String, ZarisCache> caches = new ConcurrentHashMap<>();
    private volatile Consumer<ZarisCache> creationListener = cache -> { };
    /** Decides on failed stores inside {@code sync = true} loads; set once at start-up, read by every cache. */
    private volatile ZarisCacheErrorHandler errorHandler = ZarisCacheErrorHandler.failing();

    /**
     * @param keyPrefix      prepended to every stored key ({@code <prefix><cache>::<key>}); must not contain
     *                       {@code ::}
     * @param defaults       settings of caches without their own entry
     * @param configurations per-cache settings, by cache name
     * @param initialCaches  names of the caches to create now
     */
    public ZarisCacheManager(ZarisClient client, ZarisSerializer serializer, String keyPrefix,
                             ZarisCacheConfiguration defaults, Map<String, ZarisCacheConfiguration> configurations,
                             Collection<String> initialCaches) {
        this(client, serializer, keyPrefix, defaults, configurations, initialCaches, new EntrySizeSample());
    }

    /**
     * @param entrySizes told the size of every entry the caches write (for the memory estimate)
     */
    public ZarisCacheManager(ZarisClient client, ZarisSerializer serializer, String keyPrefix,
                             ZarisCacheConfiguration defaults, Map<String, ZarisCacheConfiguration> configurations,
                             Collection<String> initialCaches, EntrySizeSample entrySizes) {
        this(client, serializer, keyPrefix, defaults, configurations, initialCaches,
                () -> ThreadLocalRandom.current().nextDouble(), ForkJoinPool.commonPool(), entrySizes);
    }

    ZarisCacheManager(ZarisClient client, ZarisSerializer serializer, String keyPrefix,
                      ZarisCacheConfiguration defaults, Map<String, ZarisCacheConfiguration> configurations,
                      Collection<String> initialCaches, DoubleSupplier random, Executor asyncExecutor) {
        this(client, serializer, keyPrefix, defaults, configurations, initialCaches, random, asyncExecutor,
                new EntrySizeSample());
    }

    /**
     * @param random        source of TTL jitter, values in [0, 1)
     * @param asyncExecutor where asynchronous cache results complete; must not be a client network thread
     */
    ZarisCacheManager(ZarisClient client, ZarisSerializer serializer, String keyPrefix,
                      ZarisCacheConfiguration defaults, Map<String, ZarisCacheConfiguration> configurations,
                      Collection<String> initialCaches, DoubleSupplier random, Executor asyncExecutor,
                      EntrySizeSample entrySizes) {
        this(client, serializer, keyPrefix, defaults, configurations, initialCaches, random, asyncExecutor, entrySizes,
                Clock.systemUTC());
    }

    /**
     * @param clock the wall clock the caches write and check lifetime ends with (time-to-idle caches that also
     *              have a time to live)
     */
    ZarisCacheManager(ZarisClient client, ZarisSerializer serializer, String keyPrefix,
                      ZarisCacheConfiguration defaults, Map<String, ZarisCacheConfiguration> configurations,
                      Collection<String> initialCaches, DoubleSupplier random, Executor asyncExecutor,
                      EntrySizeSample entrySizes, Clock clock) {
        this(client, serializer, keyPrefix, defaults, configurations, initialCaches, random, asyncExecutor, entrySizes,
                clock, ZarisOperationObserver.none());
    }

    /** @param observer wraps every client call the caches make */
    ZarisCacheManager(ZarisClient client, ZarisSerializer serializer, String keyPrefix,
                      ZarisCacheConfiguration defaults, Map<String, ZarisCacheConfiguration> configurations,
                      Collection<String> initialCaches, DoubleSupplier random, Executor asyncExecutor,
                      EntrySizeSample entrySizes, Clock clock, ZarisOperationObserver observer) {
        this.observer = Objects.requireNonNull(observer, "observer must not be null");
        this.clock = Objects.requireNonNull(clock, "clock must not be null");
        this.entrySizes = Objects.requireNonNull(entrySizes, "entrySizes must not be null");
        this.client = Objects.requireNonNull(client, "client must not be null");
        this.serializer = Objects.requireNonNull(serializer, "serializer must not be null");
        this.keyPrefix = requireUsableKeyPrefix(keyPrefix == null ? "" : keyPrefix);
        this.defaults = Objects.requireNonNull(defaults, "defaults must not be null");
        this.configurations = Map.copyOf(configurations);
        this.random = random;
        this.asyncExecutor = asyncExecutor;
        initialCaches.forEach(name -> caches.computeIfAbsent(name, this::createCache));
        this.configurations.keySet().forEach(name -> caches.computeIfAbsent(name, this::createCache));
    }

    /** The cache of that name, created on first use. */
    @Override
    public ZarisCache getCache(String name) {
        ZarisCache existing = caches.get(name);
        if (existing != null) {
            return existing;
        }
        boolean[] created = new boolean[1];
        ZarisCache cache = caches.computeIfAbsent(name, newName -> {
            created[0] = true;
            return createCache(newName);
        });
        if (created[0]) {
            creationListener.accept(cache);
        }
        return cache;
    }

    @Override
    public Collection<String> getCacheNames() {
        return Collections.unmodifiableSet(caches.keySet());
    }

    /** The settings a cache of that name has (or would get). */
    public ZarisCacheConfiguration configurationOf(String name) {
        return configurations.getOrDefault(name, defaults);
    }

    /** Names of the caches that exist right now. */
    public Set<String> existingCacheNames() {
        return Set.copyOf(caches.keySet());
    }

    /** Called with every cache created from now on (replaces any previous listener). */
    public void setCacheCreationListener(Consumer<ZarisCache> listener) {
        this.creationListener = Objects.requireNonNull(listener, "listener must not be null");
    }

    /**
     * What a cache does when the store after its own {@code sync = true} load fails (see
     * {@link ZarisCache}); until set, such a failure is thrown ({@link ZarisCacheErrorHandler#failing()}).
     * Applies to existing caches too.
     */
    public void setErrorHandler(ZarisCacheErrorHandler errorHandler) {
        this.errorHandler = Objects.requireNonNull(errorHandler, "errorHandler must not be null");
    }

    ZarisCacheErrorHandler errorHandler() {
        return errorHandler;
    }

    /** A prefix with {@code ::} would blur the line between cache names and keys, as such a cache name would. */
    static String requireUsableKeyPrefix(String keyPrefix) {
        if (keyPrefix != null && keyPrefix.contains("::")) {
            throw new IllegalArgumentException("the key prefix '" + keyPrefix + "' must not contain '::': that separates a"
                    + " cache's name from its keys, so the prefix would make one cache's keys look like another's");
        }
        return keyPrefix;
    }

    /** A cache name that is blank, holds {@code ::} or ends with {@code :} would blur one cache's keys with another's. */
    static String requireUsableCacheName(String name) {
        if (name == null || name.isBlank() || name.contains("::") || name.endsWith(":")) {
            throw new IllegalArgumentException("'" + name + "' is not a usable cache name: it must not be blank,"
                    + " contain '::' or end with ':' (that would blur the line between its keys and another"
                    + " cache's)");
        }
        return name;
    }

    private ZarisCache createCache(String name) {
        requireUsableCacheName(name);
        ZarisCacheConfiguration configuration = configurationOf(name);
        ZarisSerializer own = configuration.serializer();
        return new ZarisCache(name, client, own != null ? own : serializer, configuration, keyPrefix, leaseOwner,
                random, asyncExecutor, entrySizes, this::errorHandler, clock, observer);
    }

    /** A builder whose client and serializer are set; the rest starts at no prefix, defaults, no caches. */
    public static Builder builder(ZarisClient client, ZarisSerializer serializer) {
        return new Builder(client, serializer);
    }

    /**
     * Collects what a {@link ZarisCacheManager} is made of. Not thread-safe: one thread fills it and builds.
     * {@link #build} checks the key prefix and cache names, as the constructor does.
     */
    public static final class Builder {

        private ZarisClient client;
        private ZarisSerializer serializer;
        private String keyPrefix = "";
        private ZarisCacheConfiguration defaults = ZarisCacheConfiguration.defaults();
        private final Map<String, ZarisCacheConfiguration> configurations = new LinkedHashMap<>();
        private final List<String> initialCaches = new ArrayList<>();
        private EntrySizeSample entrySizes = new EntrySizeSample();
        private ZarisOperationObserver observer = ZarisOperationObserver.none();

        private Builder(ZarisClient client, ZarisSerializer serializer) {
            client(client);
            serializer(serializer);
        }

        public Builder client(ZarisClient client) {
            this.client = Objects.requireNonNull(client, "client must not be null");
            return this;
        }

        /** The serializer of every cache whose configuration does not name its own. */
        public Builder serializer(ZarisSerializer serializer) {
            this.serializer = Objects.requireNonNull(serializer, "serializer must not be null");
            return this;
        }

        public Builder keyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix == null ? "" : keyPrefix;
            return this;
        }

        /** Settings of every cache without its own entry. Entries already added keep what they hold. */
        public Builder cacheDefaults(ZarisCacheConfiguration defaults) {
            this.defaults = Objects.requireNonNull(defaults, "defaults must not be null");
            return this;
        }

        public ZarisCacheConfiguration cacheDefaults() {
            return defaults;
        }

        /** Settings of one cache, which then exists from the start; replaces any earlier entry for that name. */
        public Builder withCacheConfiguration(String cacheName, ZarisCacheConfiguration configuration) {
            configurations.put(Objects.requireNonNull(cacheName, "cacheName must not be null"),
                    Objects.requireNonNull(configuration, "configuration must not be null"));
            return this;
        }

        /** The settings a cache of that name would get so far: its own entry or the defaults. */
        public ZarisCacheConfiguration configurationOf(String cacheName) {
            return configurations.getOrDefault(cacheName, defaults);
        }

        /** Names of the caches with their own entry so far. */
        public Set<String> configuredCacheNames() {
            return Set.copyOf(configurations.keySet());
        }

        /** Caches to create at once, with the defaults unless they have their own entry. */
        public Builder initialCacheNames(Collection<String> names) {
            initialCaches.addAll(names);
            return this;
        }

        public Builder entrySizes(EntrySizeSample entrySizes) {
            this.entrySizes = Objects.requireNonNull(entrySizes, "entrySizes must not be null");
            return this;
        }

        /** Wraps every client call the caches make (e.g. as an observation); none by default. */
        public Builder operationObserver(ZarisOperationObserver observer) {
            this.observer = Objects.requireNonNull(observer, "observer must not be null");
            return this;
        }

        public ZarisCacheManager build() {
            return new ZarisCacheManager(client, serializer, keyPrefix, defaults, configurations, initialCaches,
                    () -> ThreadLocalRandom.current().nextDouble(), ForkJoinPool.commonPool(), entrySizes,
                    Clock.systemUTC(), observer);
        }
    }
}
