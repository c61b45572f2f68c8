package io.zaris.spring;

import io.zaris.spring.ZarisProperties.Mode;
import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when {@link ZarisProperties#resolveMode()} is {@link Mode#EMBEDDED}.
 *
 * <p>Conditions run before any {@code @ConfigurationProperties} bean exists, so this binds the only two
 * properties the decision reads ({@code zaris.mode}, {@code zaris.client.seeds}) straight from the
 * environment and leaves the decision itself to {@link ZarisProperties#resolveMode()}. Binding nothing
 * else keeps an unrelated bad value (say {@code zaris.request-timeout=soon}) from failing here, where the
 * error would be harder to read than the one the properties bean reports.
 */
final class OnEmbeddedModeCondition extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        Binder binder = Binder.get(context.getEnvironment());
        ZarisProperties properties = new ZarisProperties();
        binder.bind("zaris.mode", Mode.class).ifBound(properties::setMode);
        binder.bind("zaris.client.seeds", Bindable.listOf(String.class)).ifBound(properties.getClient()::setSeeds);
        Mode mode = properties.resolveMode();
        String reason = properties.getMode() != null
                ? "zaris.mode is " + mode
                : "zaris.mode is unset and zaris.client.seeds is " + (mode == Mode.CLIENT ? "set" : "empty");
        ConditionMessage.Builder message = ConditionMessage.forCondition("Zaris embedded mode");
        return mode == Mode.EMBEDDED
                ? ConditionOutcome.match(message.because(reason))
                : ConditionOutcome.noMatch(message.because(reason));
    }
}
