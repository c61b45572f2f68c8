package io.zaris.resp;

import java.nio.charset.StandardCharsets;
import java.util.Collection;

/**
 * Finds a command's {@link CommandTable.Spec} by the bytes of its name, ASCII letters compared without case, without
 * allocating: an open-addressing table (linear probing, at most a quarter full) of the lower-case names' bytes.
 * Immutable after construction, so safe to share between event loops.
 */
final class NameIndex {

    private final CommandTable.Spec[] specs;
    private final byte[][] names;
    private final int mask;

    NameIndex(Collection<CommandTable.Spec> commands) {
        int capacity = Integer.highestOneBit(Math.max(4, commands.size()) * 4 - 1) << 1;
        specs = new CommandTable.Spec[capacity];
        names = new byte[capacity][];
        mask = capacity - 1;
        for (CommandTable.Spec spec : commands) {
            byte[] name = spec.name().getBytes(StandardCharsets.US_ASCII);
            for (byte b : name) {
                if (lower(b) != b) {
                    throw new IllegalArgumentException("command names are lower case: " + spec.name());
                }
            }
            int slot = hash(name) & mask;
            while (names[slot] != null) {
                slot = (slot + 1) & mask;
            }
            names[slot] = name;
            specs[slot] = spec;
        }
    }

    /** The spec whose name equals {@code name} ignoring the case of ASCII letters, or {@code null}. */
    CommandTable.Spec find(byte[] name) {
        for (int slot = hash(name) & mask; names[slot] != null; slot = (slot + 1) & mask) {
            if (equalsIgnoringCase(names[slot], name)) {
                return specs[slot];
            }
        }
        return null;
    }

    private static int hash(byte[] name) {
        int hash = 0x811C9DC5;
        for (byte b : name) {
            hash = (hash ^ lower(b)) * 0x01000193;
        }
        return hash ^ (hash >>> 16);
    }

    /** {@code lowerCase} is lower case already (a table name). */
    private static boolean equalsIgnoringCase(byte[] lowerCase, byte[] name) {
        if (lowerCase.length != name.length) {
            return false;
        }
        for (int i = 0; i < name.length; i++) {
            if (lowerCase[i] != lower(name[i])) {
                return false;
            }
        }
        return true;
    }

    private static byte lower(byte b) {
        return b >= 'A' && b <= 'Z' ? (byte) (b + ('a' - 'A')) : b;
    }
}
