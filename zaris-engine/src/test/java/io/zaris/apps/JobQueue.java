package io.zaris.apps;

import io.lettuce.core.KeyValue;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A work queue as a Redis application writes it with Lettuce: producers RPUSH jobs onto an urgent or a normal list,
 * consumers take the next one with BLPOP on both (urgent first). The two lists share a hash tag, so one BLPOP covers
 * both in Redis Cluster. It knows nothing of Zaris (only Lettuce types), so running it against Zaris is running it
 * unmodified.
 *
 * <p>Each consumer owns its connection: a BLPOP blocks the connection it is sent on.
 */
final class JobQueue {

    private final RedisClusterClient client;
    private final String urgent;
    private final String normal;

    JobQueue(RedisClusterClient client, String name) {
        this.client = client;
        this.urgent = "{" + name + "}:urgent";
        this.normal = "{" + name + "}:normal";
    }

    /** Queues a job on the given producer connection; returns the length of its list. */
    long submit(StatefulRedisClusterConnection<String, String> producer, String job, boolean isUrgent) {
        return producer.sync().rpush(isUrgent ? urgent : normal, job);
    }

    /**
     * Takes jobs and hands each to {@code work} while {@code keepGoing} says so, waiting at most a second in each
     * BLPOP so that it notices when to stop. Runs on the calling thread, on a connection of its own.
     */
    void consume(BooleanSupplier keepGoing, Consumer<String> work) {
        try (StatefulRedisClusterConnection<String, String> connection = client.connect()) {
            while (keepGoing.getAsBoolean()) {
                KeyValue<String, String> job = connection.sync().blpop(1, urgent, normal);
                if (job != null && job.hasValue()) {
                    work.accept(job.getValue());
                }
            }
        }
    }
}
