package io.zaris.store;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A hash's (or set's) content as one byte string for {@link ContentDigest}: a type marker, then each field and value with its
 * length, fields in byte order, so two copies holding the same fields digest alike whatever order they were set in.
 */
final class HashDigest {

    private static final byte HASH_MARKER = 'H';
    /** A set digests as a hash of members without values, under its own marker. */
    private static final byte SET_MARKER = 'S';
    /** A sorted set digests as a hash of members and their 8-byte scores, under its own marker. */
    private static final byte SORTED_SET_MARKER = 'Z';

    private HashDigest() {
    }

    static byte[] of(HashEntry hash) {
        List<byte[][]> fields = new ArrayList<>(hash.size());
        hash.forEachField((name, value) -> fields.add(new byte[][] {name, value}));
        fields.sort((a, b) -> Arrays.compareUnsigned(a[0], b[0]));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(hash.isSortedSet() ? SORTED_SET_MARKER : hash.isSet() ? SET_MARKER : HASH_MARKER);
        for (byte[][] field : fields) {
            writeSized(out, field[0]);
            writeSized(out, field[1]);
        }
        return out.toByteArray();
    }

    private static void writeSized(ByteArrayOutputStream out, byte[] bytes) {
        out.writeBytes(ByteBuffer.allocate(4).putInt(bytes.length).array());
        out.writeBytes(bytes);
    }
}
