package io.zaris.spring.template;

import io.zaris.client.KeyChange;
import io.zaris.client.KeyWatch;
import io.zaris.client.KeyWatchListener;
import io.zaris.client.WatchGap;
import io.zaris.client.ZarisClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;

/**
 * A client key watch as a {@link Flux}: one watch per subscription, closed when the subscription ends. A gap
 * ends the flux with a {@link ZarisWatchGapException}, and so does a subscriber that does not request fast enough
 * ({@link FluxSink.OverflowStrategy#ERROR}): nothing is buffered without bound, nothing is skipped silently.
 */
final class KeyChangeFlux {

    private KeyChangeFlux() {
    }

    static Flux<KeyChange> of(ZarisClient client, String key, boolean prefix) {
        if (key == null) {
            throw new IllegalArgumentException((prefix ? "prefix" : "key") + " must not be null");
        }
        return Flux.create(sink -> {
            KeyWatchListener listener = new KeyWatchListener() {
                @Override
                public void onChange(KeyChange change) {
                    sink.next(change);
                }

                @Override
                public void onFellBehind(WatchGap gap) {
                    sink.error(new ZarisWatchGapException(gap));
                }
            };
            KeyWatch watch = prefix ? client.watchPrefix(key, listener) : client.watch(key, listener);
            sink.onDispose(watch::close);
        }, FluxSink.OverflowStrategy.ERROR);
    }
}
