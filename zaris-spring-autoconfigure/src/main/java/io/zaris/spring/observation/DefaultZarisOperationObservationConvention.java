package io.zaris.spring.observation;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

/**
 * The observation {@code zaris.client.operation}: a timer of that name (its count and sum per tag set) and, with
 * a tracer, a span named {@code zaris <operation>}. Low-cardinality tags only, none derived from a key:
 * <ul>
 * <li>{@code operation}: the operation's fixed name ({@code get}, {@code put}, {@code put_if_absent}, ...);
 * <li>{@code outcome}: {@link ZarisOperationOutcome#tagValue()};
 * <li>{@code attempts}: {@code 0}, {@code 1}, {@code 2}, {@code 3} or {@code 4+} (retries bucketed so that
 *     the tag stays bounded whatever {@code zaris.client.max-attempts} is);
 * <li>{@code partition}: the partition number, {@code none} (no attempt was routed) or {@code several}
 *     (a scan); bounded by the cluster's partition count.
 * </ul>
 */
public class DefaultZarisOperationObservationConvention implements ZarisOperationObservationConvention {

    /** The observation's (and timer's) name. */
    public static final String NAME = "zaris.client.operation";

    /** Attempt counts from this one up share a tag value. */
    static final int ATTEMPTS_BUCKET_CAP = 4;

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(ZarisOperationContext context) {
        return "zaris " + context.operation();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(ZarisOperationContext context) {
        return KeyValues.of(KeyValue.of("operation", context.operation()),
                KeyValue.of("outcome", context.outcome().tagValue()),
                KeyValue.of("attempts", attemptsTag(context.attempts())),
                KeyValue.of("partition", partitionTag(context.partition())));
    }

    static String attemptsTag(int attempts) {
        return attempts >= ATTEMPTS_BUCKET_CAP ? ATTEMPTS_BUCKET_CAP + "+" : Integer.toString(attempts);
    }

    static String partitionTag(int partition) {
        return switch (partition) {
            case ZarisOperationContext.NO_PARTITION -> "none";
            case ZarisOperationContext.SEVERAL_PARTITIONS -> "several";
            default -> Integer.toString(partition);
        };
    }
}
