package io.zaris.client;

import static io.zaris.client.RequestInputs.bytes;

import io.zaris.model.Glob;
import io.zaris.model.SortedSetScores;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The encodings of a collection operation's arguments (numbers, scores, members, a scan's glob, a random pick's count)
 * and the decodings of the texts and scores its answers hold. Stateless: pure functions, any thread.
 */
final class CollectionArguments {

    /** The most draws a random pick with a negative count may ask (the node refuses more: it builds the answer whole). */
    private static final int MAX_REPEATED_PICKS = 1_000_000;

    private CollectionArguments() {
    }

    /**
     * A random pick's count (HRANDFIELD, ZRANDMEMBER) as the node takes it. The node builds a repeating answer whole and
     * refuses more than a million draws; the client refuses them first.
     */
    static byte[] pickCount(String operation, int count) {
        if (count < -MAX_REPEATED_PICKS) {
            throw new IllegalArgumentException(operation + " takes a count of -" + MAX_REPEATED_PICKS + " or more, not "
                    + count);
        }
        return number(count);
    }

    /** A scan's MATCH glob as a test of an item's bytes ({@code null}: every item passes). */
    static Predicate<byte[]> matching(String pattern) {
        if (pattern == null) {
            return item -> true;
        }
        byte[] glob = bytes(pattern);
        return item -> Glob.matches(glob, item);
    }

    static byte[] number(long value) {
        return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
    }

    static Set<String> texts(List<byte[]> items) {
        Set<String> out = new LinkedHashSet<>();
        for (byte[] item : items) {
            out.add(new String(item, StandardCharsets.UTF_8));
        }
        return out;
    }

    static List<String> textList(List<byte[]> items) {
        List<String> out = new ArrayList<>(items.size());
        for (byte[] item : items) {
            out.add(new String(item, StandardCharsets.UTF_8));
        }
        return out;
    }

    /** A score as the sorted-set ops take it: Redis's text, exact for every double ({@code %.17g}). */
    static byte[] score(double score, String operation) {
        if (Double.isNaN(score)) {
            throw new IllegalArgumentException(operation + " takes no NaN score");
        }
        return SortedSetScores.formatBytes(score);
    }

    static double parseScore(byte[] text) {
        Double score = SortedSetScores.parse(text);
        if (score == null) {
            throw new IllegalStateException("unreadable score " + new String(text, StandardCharsets.US_ASCII));
        }
        return score;
    }

    static List<byte[]> members(String[] members, String operation) {
        if (members.length == 0) {
            throw new IllegalArgumentException(operation + " needs at least one member");
        }
        List<byte[]> args = new ArrayList<>(members.length);
        for (String member : members) {
            args.add(bytes(member));
        }
        return args;
    }
}
