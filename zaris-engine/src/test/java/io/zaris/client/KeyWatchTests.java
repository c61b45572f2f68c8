package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A watch's matching and its bounded queue: past the bound it drops, says so once, and admits again after. */
@Tag("unit")
class KeyWatchTests {

    private static final KeyWatchListener IGNORING = new KeyWatchListener() {
        @Override
        public void onChange(KeyChange change) {
        }

        @Override
        public void onFellBehind(WatchGap gap) {
        }
    };

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static KeyWatch watch(String key, boolean prefix) {
        return new KeyWatch(bytes(key), prefix, IGNORING, null, new int[] {7});
    }

    @Test
    void aKeyWatchMatchesItsKeyOnlyAndAPrefixWatchWhatStartsWithIt() {
        KeyWatch key = watch("user:1", false);
        KeyWatch prefix = watch("user:", true);

        assertThat(key.matches(bytes("user:1"))).isTrue();
        assertThat(key.matches(bytes("user:10"))).isFalse();
        assertThat(prefix.matches(bytes("user:10"))).isTrue();
        assertThat(prefix.matches(bytes("user"))).isFalse();
        assertThat(prefix.matches(bytes("order:1"))).isFalse();
        assertThat(watch("", true).matches(bytes("anything"))).isTrue();
    }

    @Test
    void pastTheBoundChangesAreDroppedAndCountedUntilTheNoticeRan() {
        KeyWatch watch = watch("k", false);
        for (int i = 0; i < KeyWatches.MAX_PENDING; i++) {
            assertThat(watch.admit()).isEqualTo(KeyWatch.Admission.QUEUE);
        }

        assertThat(watch.admit()).isEqualTo(KeyWatch.Admission.DROP_AND_NOTIFY);
        watch.delivered();
        assertThat(watch.admit()).as("room again, but the notice has not run: still dropped")
                .isEqualTo(KeyWatch.Admission.DROP);
        assertThat(watch.takeDropped()).isEqualTo(2);

        assertThat(watch.admit()).isEqualTo(KeyWatch.Admission.QUEUE);
    }

    @Test
    void aStreamThatCannotResumeReportsEveryChangeUpToTheNewOwnersRevisionAsPossiblyMissing() {
        // its position may lie beside the new owner's history (changes the old active never replicated), so
        // nothing before it is known to be shared
        assertThat(WatchGap.historyLost(7, 120)).isEqualTo(new WatchGap(WatchGap.Reason.HISTORY_LOST, 7, -1, 120, -1));
    }
}
