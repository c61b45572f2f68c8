package io.zaris.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class against a real Zaris cluster on loopback ports, each node with its own data port,
 * replication and failover, as in production. The nodes run in this JVM ({@link Launch#EMBEDDED}, the default),
 * or as standalone server processes started from the server jar ({@link Launch#SERVER_PROCESSES}). On a Spring
 * test the application's client is pointed at it through a {@code ZarisConnectionDetails} bean, so no embedded
 * cluster of the application's own starts. A test method can take the cluster as a parameter, an
 * {@link io.zaris.embedded.EmbeddedCluster} or a {@link ZarisServerProcesses} as launched, to read its seeds or
 * stop and restart a node.
 *
 * <p>One cluster per distinct set of attributes is shared by every test class of the JVM that asks for it (so
 * that Spring's context cache stays valid), started on first use and stopped when the JVM exits. A test that
 * stops a node should restart it before it ends.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(ZarisClusterExtension.class)
public @interface ZarisCluster {

    /** Nodes in the cluster. */
    int nodes() default 3;

    /** Owners of each partition (at most {@link #nodes()}). */
    int replicationFactor() default 2;

    /** Segments of the key space; few keep start-up fast. */
    int segments() default 64;

    /** Partitions (at most {@link #segments()}). */
    int partitions() default 16;

    /** Where the nodes run. */
    Launch launch() default Launch.EMBEDDED;

    /**
     * Whether every node also runs the Redis protocol (RESP) listener, for tests of Redis clients and the applications
     * built on them; its addresses are the cluster handle's {@code respSeeds()}. Off by default, as the server has it
     * on: a test that does not use it should not bind its ports.
     */
    boolean resp() default false;

    /**
     * With {@link Launch#SERVER_PROCESSES}: the server jar ({@code zaris-engine-<version>-server.jar}) to start
     * the nodes from. Empty means the system property {@value ZarisServerProcesses#SERVER_JAR_PROPERTY}, and
     * without it the server's main class on this JVM's class path.
     */
    String serverJar() default "";

    /** Where a {@link ZarisCluster}'s nodes run. */
    enum Launch {
        /** Nodes in the test JVM: the quickest start; a test can stop and restart one in place. */
        EMBEDDED,
        /**
         * One standalone server process per node, as in production: the nodes' own JVMs, command line and
         * HTTP readiness ({@code /health/ready}), which the start waits for.
         */
        SERVER_PROCESSES
    }
}
