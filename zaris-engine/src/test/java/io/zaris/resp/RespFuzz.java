package io.zaris.resp;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Random and mutated RESP input for the fuzz tests; deterministic for a seeded {@link Random}. */
final class RespFuzz {

    private static final String[] WORDS = {"GET", "SET", "DEL", "MGET", "MSET", "INCR", "INCRBY", "EXPIRE", "TTL", "PTTL",
            "APPEND", "GETSET", "GETEX", "GETDEL", "SETNX", "SETEX", "PSETEX", "MSETNX", "EXISTS", "TYPE", "PERSIST",
            "SCAN", "KEYS", "PING", "ECHO", "HELLO", "CLIENT", "CLUSTER", "COMMAND", "INFO", "DBSIZE", "SELECT",
            "SLOTS", "NODES", "SHARDS", "KEYSLOT", "EX", "PX", "EXAT", "PXAT", "NX", "XX", "KEEPTTL", "MATCH", "COUNT",
            "SETNAME", "GETNAME", "SETINFO", "DOCS", "COUNTKEYSINSLOT", "GT", "LT", "TYPE", "string", "EXPIREAT", "READONLY",
            "0", "1", "-1", "3", "2", "99999999999999999999", "-9223372036854775808",
            "{tag}a", "{tag}b", "key", "*", "[a-", "\\", "", "\"", "'"};

    private RespFuzz() {
    }

    static byte[] frame(Random random) {
        byte[] base = switch (random.nextInt(4)) {
            case 0 -> randomBytes(random, random.nextInt(64));
            case 1 -> inline(random);
            default -> multibulk(random);
        };
        int mutations = random.nextInt(4);
        for (int i = 0; i < mutations && base.length > 0; i++) {
            base = mutate(random, base);
        }
        return base;
    }

    static byte[] multibulk(Random random) {
        List<byte[]> args = new ArrayList<>();
        int count = 1 + random.nextInt(6);
        for (int i = 0; i < count; i++) {
            args.add(random.nextInt(8) == 0 ? randomBytes(random, random.nextInt(20))
                    : WORDS[random.nextInt(WORDS.length)].getBytes(StandardCharsets.UTF_8));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(("*" + args.size() + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (byte[] arg : args) {
            out.writeBytes(("$" + arg.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(arg);
            out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        return out.toByteArray();
    }

    private static byte[] inline(Random random) {
        StringBuilder line = new StringBuilder();
        int count = 1 + random.nextInt(5);
        for (int i = 0; i < count; i++) {
            line.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
        }
        return (line + "\r\n").getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] mutate(Random random, byte[] input) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = random.nextInt(input.length);
        switch (random.nextInt(5)) {
            case 0 -> {
                byte[] copy = input.clone();
                copy[at] = (byte) random.nextInt(256);
                return copy;
            }
            case 1 -> {
                out.write(input, 0, at);
                out.write(input, at + 1, input.length - at - 1);
            }
            case 2 -> {
                out.write(input, 0, at);
                out.writeBytes(randomBytes(random, 1 + random.nextInt(8)));
                out.write(input, at, input.length - at);
            }
            case 3 -> out.write(input, 0, at);
            default -> {
                out.writeBytes(input);
                out.writeBytes(input);
            }
        }
        return out.toByteArray();
    }

    private static byte[] randomBytes(Random random, int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = random.nextInt(3) == 0 ? (byte) "*$\r\n:0123456789-+".charAt(random.nextInt(17)) : (byte) random.nextInt(256);
        }
        return bytes;
    }
}
