package io.zaris.spring.cache;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches while {@code spring.cache.type} is not set. Boot's cache types name the provider an application
 * chose ({@code none} to switch caching off, {@code simple}, {@code redis}, ...); Zaris is not one of them, so
 * any value means "not Zaris" and the Zaris cache manager steps aside for the one Boot then configures, just as
 * Boot's own providers step aside for each other.
 */
final class OnSpringCacheTypeUnsetCondition extends SpringBootCondition {

    static final String PROPERTY = "spring.cache.type";

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        String type = context.getEnvironment().getProperty(PROPERTY);
        if (type == null || type.isBlank()) {
            return ConditionOutcome.match(PROPERTY + " is not set");
        }
        return ConditionOutcome.noMatch(PROPERTY + " is '" + type.trim() + "', which leaves caching to Boot");
    }
}
