package io.zaris.replication;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.Change;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SnapshotChunksTests {

    /** Each test entry is {@link Change#OVERHEAD_BYTES} plus a 1-byte key plus its value. */
    private static Change entry(int revision, int valueBytes) {
        return new Change(revision, 1, new byte[] {(byte) revision}, new byte[valueBytes], 0);
    }

    private static long size(int valueBytes) {
        return Change.OVERHEAD_BYTES + 1 + valueBytes;
    }

    @Test
    void anEmptySegmentIsOneEmptyChunk() {
        assertThat(ReplicaLink.chunks(List.of(), 1000)).containsExactly(List.of());
    }

    @Test
    void entriesAreCutBeforeTheChunkWouldGrowPastTheLimit() {
        List<Change> entries = List.of(entry(1, 100), entry(2, 100), entry(3, 100), entry(4, 100));
        long limit = 2 * size(100) + 10;

        List<List<Change>> chunks = ReplicaLink.chunks(entries, limit);

        assertThat(chunks).containsExactly(entries.subList(0, 2), entries.subList(2, 4));
    }

    @Test
    void aChunkThatFillsTheLimitExactlyIsNotFollowedByAnEmptyOne() {
        List<Change> entries = List.of(entry(1, 100), entry(2, 100));

        assertThat(ReplicaLink.chunks(entries, 2 * size(100))).containsExactly(entries);
    }

    @Test
    void anEntryBiggerThanTheLimitTravelsAloneSoNoChunkAddsSmallEntriesToIt() {
        List<Change> entries = List.of(entry(1, 10), entry(2, 10), entry(3, 5000), entry(4, 10));
        long limit = 1000;

        List<List<Change>> chunks = ReplicaLink.chunks(entries, limit);

        assertThat(chunks).containsExactly(entries.subList(0, 2), List.of(entries.get(2)), List.of(entries.get(3)));
        for (List<Change> chunk : chunks) {
            long bytes = chunk.stream().mapToLong(Change::sizeBytes).sum();
            assertThat(chunk.size() == 1 || bytes <= limit).as("chunk %s", chunk).isTrue();
        }
    }

    @Test
    void chunksKeepEveryEntryInRevisionOrder() {
        List<Change> entries = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            entries.add(entry(i, i * 7 % 300));
        }

        List<Change> joined = ReplicaLink.chunks(entries, 2048).stream().flatMap(List::stream).toList();

        assertThat(joined).containsExactlyElementsOf(entries);
    }
}
