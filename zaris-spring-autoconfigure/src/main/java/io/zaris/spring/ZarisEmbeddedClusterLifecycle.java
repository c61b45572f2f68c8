package io.zaris.spring;

import io.zaris.cluster.NodeAddress;
import io.zaris.embedded.EmbeddedCluster;
import java.util.List;
import java.util.Objects;
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
 * <p><b>Why the cluster stops in the lowest phase.</b> Lifecycles stop from the highest phase down, so
 * with {@link #PHASE} the cluster outlives the web server's graceful shutdown, schedulers, message
 * listeners and anything else that may still send requests through the client. Beans are destroyed
 * only after every lifecycle has stopped: destroy callbacks ({@code @PreDestroy}) that use the client
 * find the cluster already gone, so shutdown work belongs in a {@link SmartLifecycle} with a higher phase.
 * The client itself is closed afterwards, by its destroy method. It sees its connections drop first,
 * which fails no request because none is in flight by then; at worst a periodic map poll that fires in
 * that short window logs a warning.
 *
 * <p><b>Failed start-up.</b> When the context fails to refresh, lifecycles may never be stopped but
 * beans are still destroyed, so {@link #destroy()} stops the cluster as well. Stopping is idempotent.
 *
 * <p><b>States.</b>
 * <pre>
 * from      event                                to
 * NEW       afterPropertiesSet / start           RUNNING   (nodes started, first map installed)
 * NEW       stop / destroy                       STOPPED   (nothing to stop)
 * RUNNING   start / afterPropertiesSet           RUNNING   (no-op)
 * RUNNING   stop / destroy                       STOPPED   (every node closed)
 * STOPPED   stop / destroy                       STOPPED   (no-op)
 * STOPPED   start / afterPropertiesSet           IllegalStateException
 * </pre>
 * A stopped cluster is not restarted: a new one would listen on new ports, and a client bootstrapped
 * from the old seeds would keep routing to addresses nobody listens on. {@code context.stop()} followed
 * by {@code context.start()} therefore fails loudly rather than leaving a dead client behind. For the same
 * reason the bean is not {@linkplain #isPauseable() pauseable}: {@code context.pause()}, which Spring's
 * test context cache calls on contexts it keeps for later, leaves the cluster running.
 *
 * <p><b>Concurrency.</b> {@link EmbeddedCluster} is not thread-safe, and stop may come from a shutdown
 * hook thread while another thread asks for seeds; every method that reads or changes {@code state} or
 * touches the cluster holds this object's monitor.
 */
public final class ZarisEmbeddedClusterLifecycle implements SmartLifecycle, InitializingBean, DisposableBean {

    /**
     * Lifecycle phase: far below every phase Spring and Boot use, so the cluster starts first and stops
     * last, with room left for anything a user needs to order even earlier.
     */
    public static final int PHASE = Integer.MIN_VALUE + 1000;

    private enum State { NEW, RUNNING, STOPPED }

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
            }
            case RUNNING -> {
                // Already started at bean creation.
            }
            case STOPPED -> throw new IllegalStateException("embedded Zaris cluster " + cluster.clusterName()
                    + " was stopped and cannot be restarted: the client is bound to its old addresses;"
                    + " refresh a new application context instead");
        }
    }

    @Override
    public synchronized void stop() {
        if (state == State.RUNNING) {
            cluster.close();
        }
        state = State.STOPPED;
    }

    @Override
    public void destroy() {
        stop();
    }

    @Override
    public synchronized boolean isRunning() {
        return state == State.RUNNING;
    }

    /** Never: a paused-then-restarted cluster would come back on new ports (see the class comment). */
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
