package io.zaris.bench.peers;

import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The keys and the value of one value size. Keys are built once so the measured loop allocates no key
 * strings; each value size has its own key prefix, so the two data sets never overwrite each other.
 */
final class Keyspace {

    private final String[] keys;
    private final byte[] value;

    Keyspace(int keyCount, int valueBytes, long seed) {
        this.keys = new String[keyCount];
        for (int i = 0; i < keyCount; i++) {
            keys[i] = "v" + valueBytes + ":" + i;
        }
        this.value = new byte[valueBytes];
        new Random(seed).nextBytes(value);
    }

    int size() {
        return keys.length;
    }

    String key(int index) {
        return keys[index];
    }

    String randomKey(ThreadLocalRandom random) {
        return keys[random.nextInt(keys.length)];
    }

    byte[] value() {
        return value;
    }

    int valueBytes() {
        return value.length;
    }
}
