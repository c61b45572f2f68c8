package io.zaris.model;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * SINTER, SUNION and SDIFF over the members of sets already read (a missing key is an empty set). Pure; the result
 * keeps the order of the first set (SINTER, SDIFF) or of first appearance (SUNION). Shared by the RESP port and the
 * native client, which both read the sets and combine them on their side.
 */
public final class SetAlgebra {

    private SetAlgebra() {
    }

    /** {@code command} is {@code sinter}, {@code sunion} or {@code sdiff}; {@code sets} holds one list per key, in order. */
    public static List<byte[]> apply(String command, List<List<byte[]>> sets) {
        Set<ByteBuffer> result = new LinkedHashSet<>();
        switch (command) {
            case "sunion" -> sets.forEach(set -> set.forEach(member -> result.add(ByteBuffer.wrap(member))));
            case "sinter", "sdiff" -> {
                sets.get(0).forEach(member -> result.add(ByteBuffer.wrap(member)));
                for (int i = 1; i < sets.size() && !result.isEmpty(); i++) {
                    Set<ByteBuffer> other = new LinkedHashSet<>();
                    sets.get(i).forEach(member -> other.add(ByteBuffer.wrap(member)));
                    if (command.equals("sinter")) {
                        result.retainAll(other);
                    } else {
                        result.removeAll(other);
                    }
                }
            }
            default -> throw new IllegalArgumentException("not a set algebra command: " + command);
        }
        List<byte[]> out = new ArrayList<>(result.size());
        result.forEach(member -> out.add(member.array()));
        return out;
    }
}
