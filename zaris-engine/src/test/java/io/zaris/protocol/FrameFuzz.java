package io.zaris.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zaris.model.Change;
import io.zaris.model.HashOp;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Generates request frame payloads for fuzzing the native decoder: valid requests of every operation, and
 * mutations of them (bit flips, boundary values written over length and count fields, truncation, inserted
 * and appended bytes, splices of two frames, foreign op codes, pure noise). Everything is derived from one
 * seeded {@link Random}, so a failure is replayed by its seed and iteration.
 */
public final class FrameFuzz {

    private static final int[] INTERESTING_INTS = {0, 1, -1, 2, 16, 255, 256, 65_535, 65_536, 1 << 24,
            Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE - 1};
    private static final byte[] INTERESTING_BYTES = {0, 1, 0x7F, (byte) 0x80, (byte) 0xFF};

    private final Random random;

    public FrameFuzz(long seed) {
        this.random = new Random(seed);
    }

    public Random random() {
        return random;
    }

    /** The payload (no length prefix) of a random well-formed request. */
    public byte[] validPayload() {
        Request request = validRequest(1 + random.nextInt(1_000_000));
        ByteBuf buf = Unpooled.buffer();
        RequestCodec.encode(request, random.nextInt(4) == 0 ? random.nextInt(10) : 0,
                random.nextInt(4) == 0 ? 1 + random.nextInt(60_000) : 0, buf);
        return toArray(buf);
    }

    /** A valid payload with one or more mutations applied (possibly still valid). */
    public byte[] mutatedPayload() {
        byte[] payload = validPayload();
        int mutations = 1 + random.nextInt(3);
        for (int i = 0; i < mutations; i++) {
            payload = mutate(payload);
        }
        return payload;
    }

    /** Either a valid payload (1 in 8) or a mutated one. */
    public byte[] nextPayload() {
        return random.nextInt(8) == 0 ? validPayload() : mutatedPayload();
    }

    /** The payload of a well-formed HELLO. */
    public byte[] helloPayload() {
        return encode(new Request.Hello(1 + random.nextInt(1_000_000), RequestCodec.MAGIC, RequestCodec.PROTOCOL_VERSION,
                "fuzz-" + random.nextInt(1000)));
    }

    /**
     * A HELLO payload gone wrong: one to three mutations of a valid one, or (1 in 4) a well-formed HELLO with a
     * boundary value for its magic or protocol version. Sometimes still a valid HELLO.
     */
    public byte[] mutatedHelloPayload() {
        if (random.nextInt(4) == 0) {
            int value = INTERESTING_INTS[random.nextInt(INTERESTING_INTS.length)];
            boolean magic = random.nextBoolean();
            return encode(new Request.Hello(1 + random.nextInt(1_000_000), magic ? value : RequestCodec.MAGIC,
                    magic ? RequestCodec.PROTOCOL_VERSION : value & 0xFF, "fuzz"));
        }
        byte[] payload = helloPayload();
        for (int i = 1 + random.nextInt(3); i > 0; i--) {
            payload = mutate(payload);
        }
        return payload;
    }

    /**
     * Raw bytes of one to three length-prefixed frames (valid or mutated payloads) whose length prefixes may
     * be corrupted: negative, past {@code maxFrameBytes}, a boundary value, or a few bytes shorter or longer
     * than the payload that follows (so the stream falls out of step with its frames).
     */
    public byte[] mutatedStream(int maxFrameBytes) {
        ByteBuf stream = Unpooled.buffer();
        for (int frames = 1 + random.nextInt(3); frames > 0; frames--) {
            byte[] payload = nextPayload();
            int length = payload.length;
            switch (random.nextInt(6)) {
                case 0 -> length = -1 - random.nextInt(Integer.MAX_VALUE); // negative
                case 1 -> length = maxFrameBytes + random.nextInt(Integer.MAX_VALUE - maxFrameBytes); // too long
                case 2 -> length = INTERESTING_INTS[random.nextInt(INTERESTING_INTS.length)];
                case 3 -> length = Math.max(0, length - 1 - random.nextInt(8)); // shorter than the payload
                case 4 -> length = length + 1 + random.nextInt(8); // longer: swallows the next bytes
                default -> { } // the right length
            }
            stream.writeInt(length);
            stream.writeBytes(payload);
        }
        return toArray(stream);
    }

    /**
     * The first bytes of zero to three well-formed frames followed by one more, cut short anywhere before
     * its end (possibly inside its length prefix): what a client that dies mid-write leaves behind.
     */
    public byte[] truncatedStream() {
        ByteBuf stream = Unpooled.buffer();
        for (int frames = random.nextInt(4); frames > 0; frames--) {
            byte[] payload = validPayload();
            stream.writeInt(payload.length);
            stream.writeBytes(payload);
        }
        byte[] last = validPayload();
        int whole = 4 + last.length;
        stream.writeInt(last.length);
        stream.writeBytes(last);
        stream.writerIndex(stream.writerIndex() - whole + random.nextInt(whole));
        return toArray(stream);
    }

    private static byte[] encode(Request request) {
        ByteBuf buf = Unpooled.buffer();
        RequestCodec.encode(request, buf);
        return toArray(buf);
    }

    private byte[] mutate(byte[] payload) {
        switch (random.nextInt(9)) {
            case 0: { // flip a few bits
                byte[] copy = payload.clone();
                for (int i = 1 + random.nextInt(8); i > 0 && copy.length > 0; i--) {
                    int at = random.nextInt(copy.length);
                    copy[at] ^= (byte) (1 << random.nextInt(8));
                }
                return copy;
            }
            case 1: { // a boundary byte
                byte[] copy = payload.clone();
                if (copy.length > 0) {
                    copy[random.nextInt(copy.length)] = INTERESTING_BYTES[random.nextInt(INTERESTING_BYTES.length)];
                }
                return copy;
            }
            case 2: { // a boundary int over a (likely) length or count field
                byte[] copy = payload.clone();
                if (copy.length >= 4) {
                    int at = random.nextInt(copy.length - 3);
                    int value = INTERESTING_INTS[random.nextInt(INTERESTING_INTS.length)];
                    copy[at] = (byte) (value >>> 24);
                    copy[at + 1] = (byte) (value >>> 16);
                    copy[at + 2] = (byte) (value >>> 8);
                    copy[at + 3] = (byte) value;
                }
                return copy;
            }
            case 3: // truncate
                return java.util.Arrays.copyOf(payload, payload.length == 0 ? 0 : random.nextInt(payload.length));
            case 4: { // append noise
                byte[] tail = noise(1 + random.nextInt(64));
                byte[] out = java.util.Arrays.copyOf(payload, payload.length + tail.length);
                System.arraycopy(tail, 0, out, payload.length, tail.length);
                return out;
            }
            case 5: { // insert noise in the middle
                int at = payload.length == 0 ? 0 : random.nextInt(payload.length);
                byte[] middle = noise(1 + random.nextInt(16));
                byte[] out = new byte[payload.length + middle.length];
                System.arraycopy(payload, 0, out, 0, at);
                System.arraycopy(middle, 0, out, at, middle.length);
                System.arraycopy(payload, at, out, at + middle.length, payload.length - at);
                return out;
            }
            case 6: { // splice: the head of this frame with the tail of another
                byte[] other = validPayload();
                int cut = payload.length == 0 ? 0 : random.nextInt(payload.length);
                int otherCut = other.length == 0 ? 0 : random.nextInt(other.length);
                byte[] out = new byte[cut + other.length - otherCut];
                System.arraycopy(payload, 0, out, 0, cut);
                System.arraycopy(other, otherCut, out, cut, other.length - otherCut);
                return out;
            }
            case 7: { // another op code over this body (known or not)
                byte[] copy = payload.clone();
                if (copy.length > 0) {
                    OpCode[] ops = OpCode.values();
                    copy[0] = (byte) (random.nextBoolean() ? ops[random.nextInt(ops.length)].code() : random.nextInt(256));
                }
                return copy;
            }
            default: // pure noise
                return noise(random.nextInt(96));
        }
    }

    private Request validRequest(long id) {
        switch (random.nextInt(20)) {
            case 0:
                return new Request.Hello(id, RequestCodec.MAGIC, RequestCodec.PROTOCOL_VERSION, "fuzz");
            case 1:
                return new Request.Get(id, key());
            case 2:
                return new Request.Put(id, key(), value(), random.nextBoolean() ? Request.NO_TTL : 1 + random.nextInt(100_000),
                        random.nextInt(4) == 0, random.nextInt(4) == 0 ? random.nextInt(100) : Request.ANY_VERSION);
            case 3:
                return new Request.Delete(id, key(), random.nextBoolean() ? Request.ANY_VERSION : random.nextInt(100));
            case 4:
                return new Request.Increment(id, key(), random.nextInt(2001) - 1000);
            case 5:
                return new Request.Touch(id, key(), random.nextInt(100_000));
            case 6:
                return new Request.MultiGet(id, taggedKeys());
            case 7: {
                List<byte[]> keys = taggedKeys();
                List<byte[]> values = new ArrayList<>();
                for (int i = 0; i < keys.size(); i++) {
                    values.add(value());
                }
                long ttl = random.nextInt(3) == 0 ? 5_000 : 0;
                return random.nextBoolean() ? new Request.MultiPut(id, keys, values, ttl)
                        : new Request.MultiPutIfAbsent(id, keys, values, ttl);
            }
            case 8:
                return new Request.MultiDelete(id, taggedKeys());
            case 9:
                return new Request.Scan(id, random.nextInt(20), 1 + random.nextInt(50));
            case 10:
                return new Request.ClusterMap(id);
            case 11:
                return new Request.MapVersion(id);
            case 12:
                return new Request.Replicate(id, random.nextInt(80) - 8, random.nextInt(5), random.nextInt(80) - 8, changes());
            case 13:
                return new Request.Snapshot(id, random.nextInt(80) - 8, random.nextInt(5), random.nextInt(80) - 8,
                        random.nextInt(100), random.nextBoolean(), random.nextBoolean(), changes());
            case 14:
                return new Request.PartitionState(id, random.nextInt(80) - 8);
            case 15:
                return random.nextBoolean() ? new Request.AdminDrain(id) : new Request.AdminRebalance(id);
            case 16: {
                List<Request.Replicate> groups = new ArrayList<>();
                for (int i = random.nextInt(4); i > 0; i--) {
                    groups.add(new Request.Replicate(id, random.nextInt(80) - 8, random.nextInt(5), random.nextInt(80) - 8,
                            changes()));
                }
                return new Request.ReplicateBatch(id, groups);
            }
            case 17: {
                long fromEpoch = random.nextInt(5);
                return new Request.AdvanceEpoch(id, random.nextInt(80) - 8, random.nextInt(80) - 8, fromEpoch,
                        fromEpoch + 1 + random.nextInt(3), random.nextInt(100));
            }
            case 18: {
                HashOp[] ops = HashOp.values();
                HashOp op = ops[random.nextInt(ops.length)];
                List<byte[]> args = new ArrayList<>();
                List<Integer> counts = new ArrayList<>(); // every argument count up to 7 the op takes
                for (int c = 0; c <= 7; c++) {
                    if (op.takes(c)) {
                        counts.add(c);
                    }
                }
                int count = counts.get(random.nextInt(counts.size()));
                for (int i = 0; i < count; i++) {
                    args.add(op.isFieldArgument(i) ? ("f" + random.nextInt(10)).getBytes(java.nio.charset.StandardCharsets.UTF_8)
                            : random.nextBoolean() ? Integer.toString(random.nextInt(100)).getBytes(java.nio.charset.StandardCharsets.UTF_8)
                            : value());
                }
                return new Request.Hash(id, key(), op, args);
            }
            default:
                return new Request.Auth(id, random.nextBoolean() ? "default" : "user" + random.nextInt(3),
                        noise(random.nextInt(20)));
        }
    }

    private List<Change> changes() {
        List<Change> changes = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            long expiresAt = random.nextInt(3) == 0 ? System.currentTimeMillis() + 60_000 : 0;
            byte[] field = ("f" + random.nextInt(10)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            changes.add(switch (random.nextInt(10)) {
                case 7 -> Change.listInsert(random.nextInt(50), random.nextInt(5), key(), random.nextInt(10), value(), expiresAt);
                case 8 -> Change.listRemove(random.nextInt(50), random.nextInt(5), key(), random.nextInt(10), 1 + random.nextInt(3));
                case 9 -> Change.listSet(random.nextInt(50), random.nextInt(5), key(), random.nextInt(10), value(), expiresAt);
                case 0 -> Change.fieldPut(random.nextInt(50), random.nextInt(5), key(), field, value(), expiresAt);
                case 1 -> Change.fieldRemoval(random.nextInt(50), random.nextInt(5), key(), field);
                case 2 -> Change.expiry(random.nextInt(50), random.nextInt(5), key(), expiresAt);
                case 3 -> Change.memberPut(random.nextInt(50), random.nextInt(5), key(), field, expiresAt);
                case 4 -> Change.scorePut(random.nextInt(50), random.nextInt(5), key(), field,
                        io.zaris.model.SortedSetScores.encode(random.nextDouble()), expiresAt);
                default -> new Change(random.nextInt(50), random.nextInt(5), key(), random.nextBoolean() ? value() : null,
                        expiresAt);
            });
        }
        return changes;
    }

    private List<byte[]> taggedKeys() {
        List<byte[]> keys = new ArrayList<>();
        String tag = "{t" + random.nextInt(5) + "}";
        for (int i = 1 + random.nextInt(4); i > 0; i--) {
            keys.add((tag + random.nextInt(100)).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        return keys;
    }

    private byte[] key() {
        return ("k" + random.nextInt(200)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private byte[] value() {
        return noise(random.nextInt(40));
    }

    private byte[] noise(int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private static byte[] toArray(ByteBuf buf) {
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        buf.release();
        return bytes;
    }
}
