package io.zaris.resp;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads two servers' raw RESP2 replies into one text line each and normalizes only what must differ between a real
 * Redis and Zaris for the same commands. The normalizations, all of them:
 * <ol>
 *     <li>a positive {@code TTL}/{@code PTTL} becomes {@code :>0} (the time left depends on when each server ran);</li>
 *     <li>a {@code HSCAN}/{@code SSCAN}/{@code ZSCAN} cursor other than 0 becomes {@code cursor}, and its elements
 *     (pairs for HSCAN and ZSCAN) are compared as a multiset;</li>
 *     <li>the arrays of commands whose order Redis leaves unspecified ({@link #UNORDERED}) are compared as multisets,
 *     HGETALL's as a multiset of field–value pairs;</li>
 *     <li>{@code SRANDMEMBER} without a count answers "some member", with a count smaller than the set only its
 *     length counts (which members is left to chance; the generator's count 100 takes the whole set).</li>
 *     <li>{@code HRANDFIELD} and {@code ZRANDMEMBER} the same way: without a count "some member"; with a count that does
 *     not take the whole key (the generator's 100 does, and is compared as a multiset of members or pairs) only the
 *     length counts, and for a positive count whether the members picked are distinct, as Redis promises;</li>
 *     <li>a {@code BLMOVE} that times out: Redis 7.0 answers a null array, Redis's documentation (and Zaris) a null
 *     bulk string; both read as nil.</li>
 * </ol>
 * Bulk strings, integers, errors (message text included) and nils are otherwise compared exactly.
 */
final class DifferentialReplies {

    /** Commands whose arrays Redis returns in no defined order. */
    private static final List<String> UNORDERED = List.of("SMEMBERS", "SINTER", "SUNION", "SDIFF", "HKEYS", "HVALS", "SPOP",
            "SRANDMEMBER");

    /** Commands that pick at random, compared only as far as chance allows. */
    private static final List<String> RANDOM_PICKS = List.of("SRANDMEMBER", "HRANDFIELD", "ZRANDMEMBER");

    private DifferentialReplies() {
    }

    /** The normalized replies to {@code commands} (inline, one per element) read from {@code in}; {@code null} past its end. */
    static List<String> read(InputStream in, List<String> commands) throws IOException {
        Parser parser = new Parser(in);
        List<String> out = new ArrayList<>(commands.size());
        for (String command : commands) {
            Object reply = parser.next();
            out.add(reply == null ? null : render(normalize(command, reply)));
        }
        return out;
    }

    /** {@code reply} to {@code command} with what may differ between the servers replaced (see the class comment). */
    static Object normalize(String command, Object reply) {
        String[] args = command.split(" ");
        String name = args[0].toUpperCase(Locale.ROOT);
        if (reply instanceof String scalar) {
            if ((name.equals("TTL") || name.equals("PTTL")) && scalar.startsWith(":") && Long.parseLong(scalar.substring(1)) > 0) {
                return ":>0";
            }
            if (name.equals("BLMOVE") && scalar.equals("nil-array")) {
                return "nil";
            }
            if (RANDOM_PICKS.contains(name) && args.length == 2 && scalar.startsWith("\"")) {
                return "some member";
            }
            return scalar;
        }
        @SuppressWarnings("unchecked")
        List<Object> items = (List<Object>) reply;
        if (name.endsWith("SCAN") && items.size() == 2 && items.get(1) instanceof List<?> elements) {
            Object cursor = "\"0\"".equals(items.get(0)) ? items.get(0) : "cursor";
            boolean pairs = name.equals("HSCAN") || name.equals("ZSCAN");
            return List.of(cursor, sorted(elements, pairs));
        }
        if (name.equals("HGETALL")) {
            return sorted(items, true);
        }
        if (name.equals("SRANDMEMBER") && args.length == 3 && !args[2].equals("100")) {
            return "array of " + items.size();
        }
        if (RANDOM_PICKS.contains(name) && args.length >= 3 && !name.equals("SRANDMEMBER")) {
            boolean pairs = args.length == 4;
            if (args[2].equals("100")) {
                return sorted(items, pairs);
            }
            List<String> picked = new ArrayList<>();
            for (int i = 0; i < items.size(); i += pairs ? 2 : 1) {
                picked.add(render(items.get(i)));
            }
            boolean distinct = picked.stream().distinct().count() == picked.size();
            return "array of " + items.size() + (args[2].startsWith("-") ? "" : distinct ? ", distinct" : ", repeating");
        }
        if (UNORDERED.contains(name)) {
            return sorted(items, false);
        }
        return items;
    }

    /** The rendered elements (or adjacent pairs of them) sorted: a multiset in a canonical order. */
    private static List<Object> sorted(List<?> items, boolean pairs) {
        List<String> rendered = new ArrayList<>();
        int step = pairs ? 2 : 1;
        for (int i = 0; i + step <= items.size(); i += step) {
            rendered.add(pairs ? render(items.get(i)) + "=" + render(items.get(i + 1)) : render(items.get(i)));
        }
        if (items.size() % step != 0) {
            rendered.add("odd element " + render(items.get(items.size() - 1)));
        }
        rendered.sort(null);
        return new ArrayList<>(rendered);
    }

    private static String render(Object reply) {
        if (reply instanceof List<?> items) {
            List<String> parts = new ArrayList<>(items.size());
            for (Object item : items) {
                parts.add(render(item));
            }
            return parts.toString();
        }
        return (String) reply;
    }

    /**
     * RESP2 replies as a tree: a scalar is its line as sent ({@code +OK}, {@code -ERR …}, {@code :1}), a bulk string
     * its text in quotes, nils {@code nil} and {@code nil-array}, an array a list.
     */
    private static final class Parser {

        private final InputStream in;

        Parser(InputStream in) {
            this.in = in;
        }

        Object next() throws IOException {
            String line = line();
            if (line == null) {
                return null;
            }
            String rest = line.substring(1);
            return switch (line.charAt(0)) {
                case '+', '-', ':' -> line;
                case '$' -> {
                    int length = Integer.parseInt(rest);
                    if (length < 0) {
                        yield "nil";
                    }
                    String text = new String(in.readNBytes(length), StandardCharsets.ISO_8859_1);
                    line();
                    yield "\"" + text + "\"";
                }
                case '*' -> {
                    int count = Integer.parseInt(rest);
                    if (count < 0) {
                        yield "nil-array";
                    }
                    List<Object> items = new ArrayList<>(count);
                    for (int i = 0; i < count; i++) {
                        items.add(next());
                    }
                    yield items;
                }
                default -> throw new IOException("not a RESP2 reply: " + line);
            };
        }

        private String line() throws IOException {
            StringBuilder out = new StringBuilder();
            int b;
            while ((b = in.read()) != -1) {
                if (b == '\r') {
                    in.read(); // '\n'
                    return out.toString();
                }
                out.append((char) b);
            }
            return out.isEmpty() ? null : out.toString();
        }
    }
}
