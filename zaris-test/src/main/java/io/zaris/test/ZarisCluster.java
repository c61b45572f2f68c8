package io.zaris.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class against a real Zaris cluster: nodes started in this JVM on loopback ports, each
 * with its own data port, replication and failover, as in production. On a Spring test the application's client
 * is pointed at it through a {@code ZarisConnectionDetails} bean, so no embedded cluster of the application's own
 * starts. A test method can take the {@link io.zaris.embedded.EmbeddedCluster} as a parameter (to read its seeds,
 * or stop and restart a node).
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
}
