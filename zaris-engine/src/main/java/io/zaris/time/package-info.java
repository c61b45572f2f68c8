/**
 * Time: the one injected {@code TimeSource} that client, cluster, replication, server and store read instead of
 * the system clock.
 *
 * <p>May import: nothing else of Zaris: it sits at the bottom beside placement.
 */
package io.zaris.time;
