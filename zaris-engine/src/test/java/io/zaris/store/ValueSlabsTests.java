package io.zaris.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.VersionedValue;
import io.zaris.protocol.Request;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class ValueSlabsTests {

    private long now = 1_000_000;
    private final NodeStore store = new NodeStore(1, () -> now);
    private final Segment segment = store.segment(0);

    @Test
    void slotSizesRoundUpToEightBytesThenToAQuarterOfThePowerOfTwo() {
        assertThat(ValueSlabs.slotBytes(0)).isEqualTo(8);
        assertThat(ValueSlabs.slotBytes(1)).isEqualTo(8);
        assertThat(ValueSlabs.slotBytes(100)).isEqualTo(104);
        assertThat(ValueSlabs.slotBytes(128)).isEqualTo(128);
        assertThat(ValueSlabs.slotBytes(129)).isEqualTo(160);
        assertThat(ValueSlabs.slotBytes(1000)).isEqualTo(1024);
        assertThat(ValueSlabs.slotBytes(10_240)).isEqualTo(10_240);
        assertThat(ValueSlabs.slotBytes(10_241)).isEqualTo(12_288);
        assertThat(ValueSlabs.slotBytes(65_536)).isEqualTo(65_536);
        assertThat(ValueSlabs.slotBytes(65_537)).isEqualTo(65_537);
    }

    @Test
    void everyLengthUpToTheLargestSlotHasOneClassPerSlotSizeAndWastesUnderAFifth() {
        Map<Integer, Integer> slotOfClass = new HashMap<>();
        int previousClass = 0;
        for (int length = 0; length <= ValueSlabs.LARGEST_SLOT_BYTES; length++) {
            int slot = ValueSlabs.slotBytes(length);
            int sizeClass = ValueSlabs.classOf(length);
            assertThat(slot).isGreaterThanOrEqualTo(length);
            assertThat(slot - length).isLessThanOrEqualTo(Math.max(8, slot / 5));
            assertThat(sizeClass).isBetween(previousClass, previousClass + 1);
            Integer known = slotOfClass.putIfAbsent(sizeClass, slot);
            assertThat(known == null ? slot : known).as("slot size of class %d", sizeClass).isEqualTo(slot);
            previousClass = sizeClass;
        }
        assertThat(slotOfClass).hasSize(52);
    }

    @Test
    void anOverwriteOfTheSameSizeClassTakesTheSlotOfTheValueItReplaces() {
        put("k", value(10_240, 1));
        for (int i = 2; i < 200; i++) {
            put("k", value(10_000 + i, i)); // 10_002..10_199 bytes: the class of 10 KiB slots
        }
        assertThat(segment.pooledValueBytes()).isEqualTo(10_240);
        assertThat(segment.slotUsage(10_240)).containsExactly(1, 1);
        assertThat(get("k").value()).isEqualTo(value(10_199, 199));
    }

    @Test
    void anOverwriteWithoutTtlRewritesTheEntryInPlaceAndChargesTheNewLength() {
        put("k", value(10_240, 1));
        StoredEntry first = segment.entryOf(bytes("k"));
        put("k", value(10_100, 2));
        assertThat(segment.entryOf(bytes("k"))).isSameAs(first);
        assertThat(get("k").value()).isEqualTo(value(10_100, 2));
        assertThat(get("k").version()).isEqualTo(2);
        assertThat(store.memory().usedBytes()).isEqualTo(EntrySize.of(1, 10_100));

        store.put(0, bytes("k"), value(10_200, 3), 60_000, false, Request.ANY_VERSION); // a TTL: a new entry
        assertThat(segment.entryOf(bytes("k"))).isNotSameAs(first);
        assertThat(get("k").ttlRemainingMillis()).isEqualTo(60_000);
        assertThat(store.memory().usedBytes()).isEqualTo(EntrySize.of(1, 10_200));
        put("k", value(10_000, 4)); // from a TTL to none: a new entry again, without the TTL
        assertThat(get("k").ttlRemainingMillis()).isZero();
        assertThat(segment.slotUsage(10_240)).containsExactly(1, 1);
    }

    /**
     * One writer rewrites entries in place (same class, no TTL) with values stamped with the version each put
     * will get; readers check that every value they copy carries the version they were handed with it.
     */
    @Test
    void lockFreeReadersSeeTheVersionOfTheBytesTheyCopyWhileEntriesAreRewrittenInPlace() throws Exception {
        int keys = 8;
        for (int i = 0; i < keys; i++) {
            put("key-" + i, stamped(i, (int) store.segmentRevision(0) + 1, 4_096));
        }
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong reads = new AtomicLong();
        AtomicReference<String> torn = new AtomicReference<>();
        CountDownLatch readersDone = startReaders(writing, torn, reads, random -> {
            int key = random.nextInt(keys);
            VersionedValue read = store.get(0, bytes("key-" + key));
            long expected = ((long) key << 32) | (read.version() & 0xFFFF_FFFFL);
            if (!isWhole(read.value()) || ByteBuffer.wrap(read.value()).getLong(0) != expected) {
                torn.set("key-" + key + " at version " + read.version());
            }
        });
        SplittableRandom random = new SplittableRandom(7);
        for (int round = 0; round < 200_000 && torn.get() == null; round++) {
            int key = random.nextInt(keys);
            int version = (int) store.segmentRevision(0) + 1; // the only writer: the version this put gets
            put("key-" + key, stamped(key, version, 3_600 + random.nextInt(496))); // one class: in place
        }
        writing.set(false);
        assertThat(readersDone.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(torn.get()).as("a value read with another value's version").isNull();
        assertThat(reads.get()).isPositive();
    }

    @Test
    void anOverwriteOfAnotherSizeClassMovesToThatClassAndFreesTheOldSlot() {
        put("k", value(10_240, 1));
        put("k", value(100, 2));
        assertThat(segment.slotUsage(10_240)[0]).isZero();
        assertThat(segment.slotUsage(100)[0]).isEqualTo(1);
        assertThat(get("k").value()).isEqualTo(value(100, 2));
    }

    @Test
    void deletingMostKeysDropsSparseChunksAndKeepsEveryOtherValueVersionAndExpiry() {
        SplittableRandom random = new SplittableRandom(7);
        Map<String, byte[]> expected = new HashMap<>();
        Map<String, Long> versions = new HashMap<>();
        for (int i = 0; i < 1000; i++) {
            String key = "key-" + i;
            byte[] value = value(10_000, i);
            long version = store.put(0, bytes(key), value, i % 2 == 0 ? 60_000 : Request.NO_TTL, false,
                    Request.ANY_VERSION).version();
            expected.put(key, value);
            versions.put(key, version);
        }
        long full = segment.pooledValueBytes();
        List<String> keys = new ArrayList<>(expected.keySet());
        for (String key : keys) {
            if (random.nextInt(10) != 0) {
                store.delete(0, bytes(key), Request.ANY_VERSION);
                expected.remove(key);
            }
        }
        long used = (long) expected.size() * ValueSlabs.slotBytes(10_000);
        assertThat(segment.movedValues()).isPositive();
        // At most an eighth of the slots free once compaction stopped (plus the slot freed last).
        assertThat(segment.pooledValueBytes()).isLessThan(full / 5)
                .isLessThanOrEqualTo(used * 8 / 7 + ValueSlabs.slotBytes(10_000));
        for (Map.Entry<String, byte[]> entry : expected.entrySet()) {
            VersionedValue read = get(entry.getKey());
            assertThat(read.value()).isEqualTo(entry.getValue());
            assertThat(read.version()).isEqualTo(versions.get(entry.getKey()));
            int index = Integer.parseInt(entry.getKey().substring(4));
            assertThat(read.ttlRemainingMillis()).isEqualTo(index % 2 == 0 ? 60_000 : 0);
        }
    }

    @Test
    void valuesLargerThanTheLargestSlotGetAnArrayOfTheirOwn() {
        byte[] large = value(ValueSlabs.LARGEST_SLOT_BYTES + 1, 3);
        put("big", large);
        put("small", value(10, 4));
        assertThat(get("big").value()).isEqualTo(large);
        assertThat(segment.pooledValueBytes()).isEqualTo(16); // one chunk of one 16-byte slot
        store.delete(0, bytes("big"), Request.ANY_VERSION);
        assertThat(get("big")).isNull();
        assertThat(get("small").value()).isEqualTo(value(10, 4));
    }

    @Test
    void aReadInPlaceHandsTheReaderTheBytesVersionAndTtl() {
        long version = store.put(0, bytes("k"), value(300, 9), 5_000, false, Request.ANY_VERSION).version();
        List<Object> seen = new ArrayList<>();
        boolean found = store.read(0, bytes("k"), true, 0, new ValueReader() {
            @Override
            public void read(byte[] slab, int offset, int length, long readVersion, long ttl) {
                seen.addAll(List.of(Arrays.copyOfRange(slab, offset, offset + length), readVersion, ttl));
            }

            @Override
            public void discard() {
                seen.clear();
            }
        });
        assertThat(found).isTrue();
        assertThat((byte[]) seen.get(0)).isEqualTo(value(300, 9));
        assertThat(seen.subList(1, 3)).containsExactly(version, 5_000L);
        assertThat(store.read(0, bytes("absent"), true, 0, null)).isFalse();
    }

    /**
     * Readers copy lock-free while writers overwrite, delete (which moves values to drop sparse chunks) and
     * re-create keys: every value read must be one that was written whole, never bytes of two values.
     */
    @Test
    void lockFreeReadersNeverSeeATornValueWhileSlotsAreReusedAndMoved() throws Exception {
        int keys = 64;
        for (int i = 0; i < keys; i++) {
            put("key-" + i, stamped(i, 0, 2_000));
        }
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong reads = new AtomicLong();
        AtomicReference<String> torn = new AtomicReference<>();
        CountDownLatch readersDone = startReaders(writing, torn, reads, random -> {
            byte[] key = bytes("key-" + random.nextInt(keys));
            VersionedValue read = store.get(0, key);
            if (read != null && !isWhole(read.value())) {
                torn.set("get of " + new String(key, StandardCharsets.UTF_8));
            }
            ByteBuffer[] copy = new ByteBuffer[1];
            store.read(0, key, false, 0, new ValueReader() {
                @Override
                public void read(byte[] slab, int offset, int length, long version, long ttl) {
                    copy[0] = ByteBuffer.wrap(Arrays.copyOfRange(slab, offset, offset + length));
                }

                @Override
                public void discard() {
                    copy[0] = null;
                }
            });
            if (copy[0] != null && !isWhole(copy[0].array())) {
                torn.set("read in place of " + new String(key, StandardCharsets.UTF_8));
            }
        });
        SplittableRandom random = new SplittableRandom(42);
        for (int round = 1; round <= 200_000 && torn.get() == null; round++) {
            int key = random.nextInt(keys);
            if (random.nextInt(4) == 0) {
                store.delete(0, bytes("key-" + key), Request.ANY_VERSION);
            } else {
                put("key-" + key, stamped(key, round, 1_000 + random.nextInt(2_000)));
            }
        }
        writing.set(false);
        assertThat(readersDone.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(torn.get()).as("a torn value was read").isNull();
        assertThat(reads.get()).isPositive();
        assertThat(segment.movedValues()).isPositive();
    }

    /**
     * Starts two daemon readers that run {@code readOnce} (with a random source of their own) until writing
     * stops or one finds a torn value; the latch counts them out.
     */
    private static CountDownLatch startReaders(AtomicBoolean writing, AtomicReference<String> torn, AtomicLong reads,
                                               Consumer<SplittableRandom> readOnce) {
        CountDownLatch readersDone = new CountDownLatch(2);
        for (int r = 0; r < 2; r++) {
            SplittableRandom random = new SplittableRandom(r);
            Thread reader = new Thread(() -> {
                try {
                    while (writing.get() && torn.get() == null) {
                        readOnce.accept(random);
                        reads.incrementAndGet();
                    }
                } finally {
                    readersDone.countDown();
                }
            });
            reader.setDaemon(true);
            reader.start();
        }
        return readersDone;
    }

    /** A value whose every 8-byte word is the same (key, round) stamp: a torn copy mixes two stamps. */
    private static byte[] stamped(int key, int round, int length) {
        ByteBuffer buffer = ByteBuffer.allocate(length / 8 * 8);
        long stamp = ((long) key << 32) | round;
        while (buffer.hasRemaining()) {
            buffer.putLong(stamp);
        }
        return buffer.array();
    }

    private static boolean isWhole(byte[] value) {
        ByteBuffer buffer = ByteBuffer.wrap(value);
        long first = buffer.getLong(0);
        while (buffer.hasRemaining()) {
            if (buffer.getLong() != first) {
                return false;
            }
        }
        return true;
    }

    private static byte[] value(int length, int seed) {
        byte[] value = new byte[length];
        new SplittableRandom(seed).nextBytes(value);
        return value;
    }

    private void put(String key, byte[] value) {
        store.put(0, bytes(key), value, Request.NO_TTL, false, Request.ANY_VERSION);
    }

    private VersionedValue get(String key) {
        return store.get(0, bytes(key));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
