package io.zaris.spring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags of a Zaris client operation's observation; a bean of this type replaces
 * {@link DefaultZarisOperationObservationConvention}.
 */
public interface ZarisOperationObservationConvention extends ObservationConvention<ZarisOperationContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof ZarisOperationContext;
    }
}
