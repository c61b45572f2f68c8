package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.VersionedValue;
import io.zaris.protocol.SegmentChange;
import io.zaris.protocol.SegmentInvalidations;
import io.zaris.protocol.SegmentTrackAnswer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The near cache's bookkeeping with plain objects for connections, hand-made track answers and pushes, and a
 * hand-driven clock.
 */
@Tag("unit")
class NearCacheTests {

    private static final Object CONNECTION = new Object();
    private static final Object NEW_OWNER = new Object();
    private static final int SEGMENT = 5;
    private static final int OTHER_SEGMENT = 6;
    private static final long EPOCH = 3;

    private final NearCache near = new NearCache(NearCacheOptions.builder().maxEntries(100).maxBytes(1 << 20).build());

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static VersionedValue value(String text, long version) {
        return new VersionedValue(bytes(text), version, 0);
    }

    @BeforeEach
    void streamsLiveOnTheFirstConnection() {
        startFresh(near, SEGMENT, CONNECTION, EPOCH, 10);
        startFresh(near, OTHER_SEGMENT, CONNECTION, EPOCH, 20);
    }

    /** The stream of {@code segment} goes live on {@code connection} from scratch, at {@code revision}. */
    private static void startFresh(NearCache cache, int segment, Object connection, long epoch, long revision) {
        SegmentStreams.Track track = cache.beginTrack(segment, connection, epoch);
        assertThat(track.sinceRevision()).isEqualTo(-1);
        cache.tracked(segment, track, new SegmentTrackAnswer(false, revision, epoch, List.of()));
    }

    private static SegmentChange change(long revision, byte[] key) {
        return new SegmentChange(revision, false, key);
    }

    private VersionedValue lookup(String key) {
        return lookup(key, SEGMENT, CONNECTION, EPOCH);
    }

    private VersionedValue lookup(String key, int segment, Object routed, long epoch) {
        return near.lookup(bytes(key), segment, routed, true, epoch, 0);
    }

    private void fill(String key, int segment, Object connection, long epoch, VersionedValue value) {
        near.fill(bytes(key), segment, near.stampOf(segment), near.generationFor(segment, connection, epoch), value,
                connection, 0);
    }

    private void fill(String key, VersionedValue value) {
        fill(key, SEGMENT, CONNECTION, EPOCH, value);
    }

    @Test
    void aFilledValueIsServedWithItsVersion() {
        fill("k", value("v", 9));

        VersionedValue hit = lookup("k");
        assertThat(hit).isNotNull();
        assertThat(new String(hit.value(), StandardCharsets.UTF_8)).isEqualTo("v");
        assertThat(hit.version()).isEqualTo(9);
        assertThat(near.stats().hits()).isEqualTo(1);
    }

    @Test
    void anInvalidationBetweenSendAndAnswerKeepsTheAnswerOut() {
        long stamp = near.stampOf(SEGMENT);
        long generation = near.generationFor(SEGMENT, CONNECTION, EPOCH);
        near.invalidated(new SegmentInvalidations(SEGMENT, EPOCH, List.of(change(11, bytes("k")))), CONNECTION);
        near.fill(bytes("k"), SEGMENT, stamp, generation, value("old", 9), CONNECTION, 0);

        assertThat(lookup("k")).as("the read may have seen the value before the change").isNull();
        assertThat(near.stats().misses()).isEqualTo(1);
    }

    @Test
    void anInvalidationDropsACachedKey() {
        fill("k", value("v", 1));
        near.invalidated(new SegmentInvalidations(SEGMENT, EPOCH, List.of(change(11, bytes("k")))), CONNECTION);

        assertThat(lookup("k")).isNull();
        assertThat(near.stats().entries()).isZero();
    }

    @Test
    void aReadSentBeforeTheSegmentHadAStreamDoesNotFill() {
        NearCache fresh = new NearCache(NearCacheOptions.builder().maxEntries(10).maxBytes(1 << 20).build());
        long generation = fresh.generationFor(SEGMENT, CONNECTION, EPOCH);
        startFresh(fresh, SEGMENT, CONNECTION, EPOCH, 1);
        fresh.fill(bytes("k"), SEGMENT, fresh.stampOf(SEGMENT), generation, value("v", 1), CONNECTION, 0);

        assertThat(fresh.stats().entries()).isZero();
    }

    @Test
    void underANewEpochAnEntryWaitsForTheResumeAndIsServedAgainAfterIt() {
        fill("kept", value("v", 1));
        fill("changed", value("v", 2));
        near.invalidated(new SegmentInvalidations(SEGMENT, EPOCH, List.of(change(11, bytes("x")), change(12, bytes("y")))),
                CONNECTION);

        assertThat(lookup("kept", SEGMENT, NEW_OWNER, EPOCH + 1)).as("routed elsewhere: not served").isNull();
        SegmentStreams.Track track = near.beginTrack(SEGMENT, NEW_OWNER, EPOCH + 1);
        assertThat(track.sinceRevision()).as("the last revision pushed").isEqualTo(12);
        assertThat(track.sinceEpoch()).isEqualTo(EPOCH);
        assertThat(near.beginTrack(SEGMENT, NEW_OWNER, EPOCH + 1)).as("one track at a time").isNull();
        assertThat(lookup("kept", SEGMENT, NEW_OWNER, EPOCH + 1)).as("while resuming: not served").isNull();

        near.tracked(SEGMENT, track, new SegmentTrackAnswer(true, 14, EPOCH + 1, List.of(change(13, bytes("changed")))));

        assertThat(lookup("kept", SEGMENT, NEW_OWNER, EPOCH + 1)).isNotNull();
        assertThat(lookup("changed", SEGMENT, NEW_OWNER, EPOCH + 1)).isNull();
        assertThat(near.stats().resumedStreams()).isEqualTo(1);
        assertThat(near.stats().droppedStreams()).isZero();
    }

    @Test
    void aNewOwnerWhoseHistoryDoesNotReachBackDropsThatSegmentOnly() {
        fill("a", value("v", 1));
        fill("b", OTHER_SEGMENT, CONNECTION, EPOCH, value("v", 1));
        SegmentStreams.Track track = near.beginTrack(SEGMENT, NEW_OWNER, EPOCH + 1);

        near.tracked(SEGMENT, track, new SegmentTrackAnswer(false, 40, EPOCH + 1, List.of()));

        assertThat(lookup("a", SEGMENT, NEW_OWNER, EPOCH + 1)).isNull();
        assertThat(near.stats().entries()).as("the other segment keeps its entry").isEqualTo(1);
        assertThat(lookup("b", OTHER_SEGMENT, CONNECTION, EPOCH)).isNotNull();
        assertThat(near.stats().droppedStreams()).isEqualTo(1);
    }

    @Test
    void aLostConnectionStopsServingButKeepsTheEntriesForTheResume() {
        fill("k", value("v", 1));

        near.forget(CONNECTION);

        assertThat(lookup("k")).isNull();
        assertThat(near.stats().entries()).isEqualTo(2 - 1);
        SegmentStreams.Track track = near.beginTrack(SEGMENT, NEW_OWNER, EPOCH);
        assertThat(track.sinceRevision()).isEqualTo(10);
        near.tracked(SEGMENT, track, new SegmentTrackAnswer(true, 10, EPOCH, List.of()));
        assertThat(lookup("k", SEGMENT, NEW_OWNER, EPOCH)).isNotNull();
    }

    @Test
    void aTrackAnswerOvertakenByALostConnectionChangesNothing() {
        fill("k", value("v", 1));
        SegmentStreams.Track track = near.beginTrack(SEGMENT, NEW_OWNER, EPOCH + 1);
        near.forget(NEW_OWNER);

        near.tracked(SEGMENT, track, new SegmentTrackAnswer(true, 10, EPOCH + 1, List.of()));

        assertThat(lookup("k", SEGMENT, NEW_OWNER, EPOCH + 1)).isNull();
        assertThat(near.beginTrack(SEGMENT, NEW_OWNER, EPOCH + 1)).as("the next read starts it again").isNotNull();
    }

    @Test
    void aReadAnsweredAcrossAStreamChangeDoesNotFill() {
        long stamp = near.stampOf(SEGMENT);
        long generation = near.generationFor(SEGMENT, CONNECTION, EPOCH);
        near.forget(CONNECTION);

        near.fill(bytes("k"), SEGMENT, stamp, generation, value("v", 1), CONNECTION, 0);

        assertThat(near.stats().entries()).isZero();
    }

    @Test
    void aPushThatSkipsARevisionDropsTheSegment() {
        fill("k", value("v", 1));
        near.invalidated(new SegmentInvalidations(SEGMENT, EPOCH, List.of(change(11, bytes("x")))), CONNECTION);
        assertThat(lookup("k")).isNotNull();

        near.invalidated(new SegmentInvalidations(SEGMENT, EPOCH, List.of(change(13, bytes("y")))), CONNECTION);

        assertThat(lookup("k")).as("revision 12 was never heard").isNull();
        assertThat(near.stats().entries()).isZero();
    }

    @Test
    void aPushOnAnotherConnectionInvalidatesButDoesNotMoveThePosition() {
        fill("k", value("v", 1));
        near.invalidated(new SegmentInvalidations(SEGMENT, EPOCH, List.of(change(30, bytes("k")))), NEW_OWNER);

        assertThat(lookup("k")).isNull();
        assertThat(near.beginTrack(SEGMENT, NEW_OWNER, EPOCH + 1).sinceRevision()).isEqualTo(10);
    }

    @Test
    void aValueWithATimeToLiveExpiresCountingFromWhenTheReadWasSent() {
        long sentAt = 1_000_000;
        near.fill(bytes("k"), SEGMENT, near.stampOf(SEGMENT), near.generationFor(SEGMENT, CONNECTION, EPOCH),
                new VersionedValue(bytes("v"), 1, 10), CONNECTION, sentAt);

        VersionedValue early = near.lookup(bytes("k"), SEGMENT, CONNECTION, true, EPOCH, sentAt + 4_000_000);
        assertThat(early).isNotNull();
        assertThat(early.ttlRemainingMillis()).isEqualTo(6);
        assertThat(near.lookup(bytes("k"), SEGMENT, CONNECTION, true, EPOCH, sentAt + 10_000_000)).isNull();
        assertThat(near.stats().entries()).as("an expired entry is dropped").isZero();
    }

    @Test
    void absentKeysAreNotCached() {
        fill("k", null);

        assertThat(near.stats().entries()).isZero();
    }

    @Test
    void bytesHeldCountKeyValueAndOverheadAndStayWithinTheBound() {
        NearCache small = new NearCache(NearCacheOptions.builder().maxEntries(1_000)
                .maxBytes(3L * (NearCache.ENTRY_OVERHEAD_BYTES + 2 + 10)).build());
        startFresh(small, SEGMENT, CONNECTION, EPOCH, 0);
        long generation = small.generationFor(SEGMENT, CONNECTION, EPOCH);
        for (int i = 0; i < 10; i++) {
            small.fill(bytes("k" + i), SEGMENT, small.stampOf(SEGMENT), generation, value("0123456789", 1), CONNECTION, 0);
        }

        assertThat(small.stats().entries()).isEqualTo(3);
        assertThat(small.stats().bytes()).isEqualTo(3L * (NearCache.ENTRY_OVERHEAD_BYTES + 2 + 10));
        assertThat(small.stats().evictions()).isEqualTo(7);
    }
}
