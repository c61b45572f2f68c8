package io.zaris.spring;

import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.NodeAddress;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.context.SmartLifecycle;

/**
 * Runs an {@link EmbeddedCluster} for as long as the application context that owns this bean.
 *
 * <p><b>Why the cluster starts at bean creation.</b> The {@code ZarisClient} bean bootstraps from the
 * cluster's {@link #seeds()} when it is created, and bean creation happens before any
 * {@link SmartLifecycle#start()} is called. So the cluster is started in {@link #afterPropertiesSet()}:
 * Spring finishes initializing this bean before injecting it anywhere, which makes "cluster running before
 * the client exists" hold for every bean that depends on this one. {@link #start()} is then a no-op
 * (the lifecycle processor sees {@link #isRunning()} and skips it); it starts the cluster only when the
 * bean was created outside a Spring container that calls {@code afterPropertiesSet}.
 *
 * <p><b>Why the cluster stops in {@link #destroy()}, not in {@link #stop()}.</b> The nodes must outlive
 * every client of them. Lifecycles stop before any bean is destroyed, and a client bean is closed by its
 * destroy method, so nodes closed in {@code stop()} would go first and the client would see its
 * connections drop before it is closed. Spring destroys singletons in the reverse order of their creation
 * (and a bean's dependents before the bean), and every client of the embedded cluster is created after
 * this bean, because it needs the {@link #seeds()} to connect. So at context close the order is:
 * <ol>
 * <li>lifecycles stop from the highest phase down (web server graceful shutdown, schedulers, listeners);
 * {@link #stop()} leaves the nodes running;
 * <li>beans that use the client are destroyed, so their {@code @PreDestroy} callbacks can still read and
 * write;
 * <li>the client is closed;
 * <li>this bean's {@link #destroy()} closes the nodes.
 * </ol>
 * The low {@link #PHASE} still makes the cluster the first lifecycle to start.
 *
 * <p><b>Failed start-up.</b> When the context fails to refresh, lifecycles may never be stopped but
 * beans are still destroyed, so the cluster is closed all the same. Closing is idempotent.
 *
 * <p><b>States.</b>
 * <pre>
 * from      event                                to
 * NEW       afterPropertiesSet / start           RUNNING   (nodes started, first map installed)
 * NEW       stop                                 NEW       (no-op)
 * NEW       destroy                              CLOSED    (nothing to close)
 * RUNNING   start / afterPropertiesSet / stop    RUNNING   (no-op)
 * RUNNING   destroy                              CLOSED    (every node closed)
 * CLOSED    stop / destroy                       CLOSED    (no-op)
 * CLOSED    start / afterPropertiesSet           IllegalStateException
 * </pre>
 * {@code stop} leaves the nodes running because a cluster cannot be restarted in place: a new one would
 * listen on new ports, and a client bootstrapped from the old seeds would keep routing to addresses nobody
 * listens on. So {@code context.stop()} followed by {@code context.start()}, and {@code context.pause()}
 * (which Spring's test context cache calls on contexts it keeps for later), keep the cluster and the client
 * working; only destroying the bean ends the cluster.
 *
 * <p><b>Start-up notice.</b> Starting the cluster logs one INFO line ({@link EmbeddedModeNotice}): embedded mode is
 * the zero-configuration default, and a cluster private to this JVM must not pass for a shared cache.
 *
 * <p><b>Concurrency.</b> {@link EmbeddedCluster} is not thread-safe, and destroy may come from a shutdown
 * hook thread while another thread asks for seeds; every method that reads or changes {@code state} or
 * touches the cluster holds this object's monitor.
 */
public final class ZarisEmbeddedClusterLifecycle implements SmartLifecycle, InitializingBean, DisposableBean {

    /**
     * Lifecycle phase: far below every phase Spring and Boot use, so the cluster is the first lifecycle to
     * start, with room left for anything a user needs to order even earlier.
     */
    public static final int PHASE = Integer.MIN_VALUE + 1000;

    private static final Logger log = LoggerFactory.getLogger(ZarisEmbeddedClusterLifecycle.class);

    private enum State { NEW, RUNNING, CLOSED }

    private final EmbeddedCluster cluster;

    /** Guarded by {@code this}. */
    private State state = State.NEW;

    /**
     * @param cluster a built cluster that has not been started; this object owns its start and stop
     */
    public ZarisEmbeddedClusterLifecycle(EmbeddedCluster cluster) {
        this.cluster = Objects.requireNonNull(cluster, "cluster must not be null");
    }

    /** Starts the cluster, so that it is running before any bean that depends on this one is created. */
    @Override
    public void afterPropertiesSet() {
        start();
    }

    @Override
    public synchronized void start() {
        switch (state) {
            case NEW -> {
                cluster.start();
                state = State.RUNNING;
                log.info(EmbeddedModeNotice.of(cluster, Runtime.getRuntime().maxMemory()));
            }
            case RUNNING -> {
                // Already started at bean creation.
            }
            case CLOSED -> throw new IllegalStateException("embedded Zaris cluster " + cluster.clusterName()
                    + " was closed and cannot be restarted: the client is bound to its old addresses;"
                    + " refresh a new application context instead");
        }
    }

    /** Leaves the nodes running: they close in {@link #destroy()}, after the client (see the class comment). */
    @Override
    public void stop() {
    }

    /** Closes every node; called by the container after every bean that depends on this one is destroyed. */
    @Override
    public synchronized void destroy() {
        if (state == State.RUNNING) {
            cluster.close();
        }
        state = State.CLOSED;
    }

    @Override
    public synchronized boolean isRunning() {
        return state == State.RUNNING;
    }

    /** Never: pausing has nothing to do, as stopping has not (see the class comment). */
    @Override
    public boolean isPauseable() {
        return false;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    /**
     * Data addresses of the running nodes, for a client to bootstrap from.
     *
     * @throws IllegalStateException when the cluster is not running
     */
    public synchronized List<NodeAddress> seeds() {
        if (state != State.RUNNING) {
            throw new IllegalStateException("embedded Zaris cluster " + cluster.clusterName() + " is " + state
                    + ", not RUNNING; it has no seeds to connect to");
        }
        return cluster.seeds();
    }

    /**
     * The cluster itself, e.g. to stop one node in a failover demo. Its lifecycle belongs to this object:
     * do not start or close it directly.
     */
    public EmbeddedCluster cluster() {
        return cluster;
    }
}
