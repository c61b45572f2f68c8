package io.zaris.resp;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * A seeded generator of sorted-set command sequences for comparing Zaris with a real Redis: random commands over a
 * few keys and members, with scores, bounds, ranks and options drawn from pools that hold Redis's edge cases
 * (−0, 0.1, 1e20, ±inf, exclusive bounds, empty and malformed numbers, every ZADD option and their conflicts). The
 * same seed gives the same sequence. Lex ranges go to a key whose members all share score 0, the only case where
 * Redis defines them; sets stay small (Redis's compact encoding, whose order and printing the comparison covers).
 */
final class SortedSetSequences {

    private static final String[] SCORES = {"1", "2", "-1", "0", "-0", "0.5", "1.5", "1e20", "inf", "-inf", "+inf", "3.14",
        "0.1", "-2.5", "1e-5", "100", "x", "(1", "nan", "\"\"", "1e400", "7"};
    private static final String[] BOUNDS = {"-inf", "+inf", "(0", "0", "1", "(1", "2", "(2.5", "5", "-1", "(-inf", "x",
        "(", "\"\"", "100", "(1e20", "nan"};
    private static final String[] LEX_BOUNDS = {"-", "+", "[a", "(a", "[c", "(c", "[e", "(f", "[zz", "a", "\"\""};
    private static final String[] RANKS = {"0", "1", "-1", "-2", "2", "5", "-10", "x", "100", "+1", "01"};
    private static final String[] COUNTS = {"0", "1", "2", "5", "-1", "x", "-5", "100"};
    private static final String[] MEMBERS = {"a", "b", "c", "d", "e", "f", "g", "h"};
    private static final String[] ZADD_OPTIONS = {"NX", "XX", "GT", "LT", "CH", "INCR"};

    private final Random random;
    private final String prefix;

    SortedSetSequences(long seed) {
        this.random = new Random(seed);
        this.prefix = "{t}g" + seed + ":";
    }

    /** {@code count} commands, one inline command a line. */
    List<String> next(int count) {
        List<String> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(command());
        }
        return out;
    }

    private String command() {
        String key = prefix + "k" + random.nextInt(3);
        int pick = random.nextInt(100);
        if (pick < 22) {
            return zadd(key);
        } else if (pick < 27) {
            return "ZINCRBY " + key + " " + one(SCORES) + " " + one(MEMBERS);
        } else if (pick < 32) {
            return "ZREM " + key + " " + some(MEMBERS, 1 + random.nextInt(3));
        } else if (pick < 36) {
            return "ZSCORE " + key + " " + one(MEMBERS);
        } else if (pick < 39) {
            return "ZMSCORE " + key + " " + some(MEMBERS, 1 + random.nextInt(3));
        } else if (pick < 41) {
            return "ZCARD " + key;
        } else if (pick < 45) {
            return "ZCOUNT " + key + " " + one(BOUNDS) + " " + one(BOUNDS);
        } else if (pick < 49) {
            return (random.nextBoolean() ? "ZRANK " : "ZREVRANK ") + key + " " + one(MEMBERS);
        } else if (pick < 60) {
            return zrange(key);
        } else if (pick < 65) {
            return (random.nextBoolean() ? "ZRANGEBYSCORE " : "ZREVRANGEBYSCORE ") + key + " " + one(BOUNDS) + " "
                    + one(BOUNDS) + options("WITHSCORES", "LIMIT " + one(RANKS) + " " + one(COUNTS));
        } else if (pick < 68) {
            return "ZREVRANGE " + key + " " + one(RANKS) + " " + one(RANKS) + options("WITHSCORES");
        } else if (pick < 71) {
            return "ZREMRANGEBYSCORE " + key + " " + one(BOUNDS) + " " + one(BOUNDS);
        } else if (pick < 73) {
            return "ZREMRANGEBYRANK " + key + " " + one(RANKS) + " " + one(RANKS);
        } else if (pick < 79) {
            return (random.nextBoolean() ? "ZPOPMIN " : "ZPOPMAX ") + key + (random.nextBoolean() ? "" : " " + one(COUNTS));
        } else if (pick < 82) {
            return "ZSCAN " + key + " 0" + (random.nextBoolean() ? "" : " MATCH " + one(new String[] {"*", "a*", "[b-d]", "?"}));
        } else if (pick < 90) {
            return lex();
        } else if (pick < 93) {
            return "TYPE " + key;
        } else if (pick < 95) {
            return "EXISTS " + key;
        } else if (pick < 97) {
            return "DEL " + key;
        } else {
            return "SET " + key + " v"; // the next sorted-set commands on it meet WRONGTYPE
        }
    }

    private String zadd(String key) {
        StringBuilder out = new StringBuilder("ZADD " + key);
        int options = random.nextInt(3);
        for (int i = 0; i < options; i++) {
            out.append(' ').append(one(ZADD_OPTIONS));
        }
        int pairs = random.nextInt(10) == 0 ? 0 : 1 + random.nextInt(3);
        for (int i = 0; i < pairs; i++) {
            out.append(' ').append(one(SCORES)).append(' ').append(one(MEMBERS));
        }
        if (random.nextInt(15) == 0) {
            out.append(' ').append(one(SCORES)); // a score without its member
        }
        return out.toString();
    }

    private String zrange(String key) {
        int by = random.nextInt(3);
        String[] ends = by == 0 ? RANKS : BOUNDS;
        List<String> opts = new ArrayList<>();
        if (by == 1) {
            opts.add("BYSCORE");
        }
        if (random.nextInt(3) == 0) {
            opts.add("REV");
        }
        if (random.nextBoolean()) {
            opts.add("WITHSCORES");
        }
        if (random.nextInt(3) == 0) {
            opts.add("LIMIT " + one(RANKS) + " " + one(COUNTS));
        }
        if (by == 2 && random.nextBoolean()) {
            opts.add("BYSCORE"); // twice: a syntax error
        }
        Collections.shuffle(opts, random);
        return "ZRANGE " + key + " " + one(ends) + " " + one(ends) + (opts.isEmpty() ? "" : " " + String.join(" ", opts));
    }

    /** Lex commands on one key whose members all score 0. */
    private String lex() {
        String key = prefix + "lex";
        return switch (random.nextInt(7)) {
            case 0, 1 -> "ZADD " + key + " 0 " + one(MEMBERS) + " 0 " + one(MEMBERS);
            case 2 -> "ZRANGEBYLEX " + key + " " + one(LEX_BOUNDS) + " " + one(LEX_BOUNDS)
                    + (random.nextBoolean() ? "" : " LIMIT " + one(RANKS) + " " + one(COUNTS));
            case 3 -> "ZREVRANGEBYLEX " + key + " " + one(LEX_BOUNDS) + " " + one(LEX_BOUNDS);
            case 5 -> "ZLEXCOUNT " + key + " " + one(LEX_BOUNDS) + " " + one(LEX_BOUNDS);
            case 4 -> "ZRANGE " + key + " " + one(LEX_BOUNDS) + " " + one(LEX_BOUNDS) + " BYLEX" + options("REV", "WITHSCORES");
            default -> "ZREMRANGEBYLEX " + key + " " + one(LEX_BOUNDS) + " " + one(LEX_BOUNDS);
        };
    }

    private String options(String... candidates) {
        StringBuilder out = new StringBuilder();
        for (String candidate : candidates) {
            if (random.nextInt(3) == 0) {
                out.append(' ').append(candidate);
            }
        }
        return out.toString();
    }

    private String one(String[] pool) {
        return pool[random.nextInt(pool.length)];
    }

    private String some(String[] pool, int count) {
        List<String> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(one(pool));
        }
        return String.join(" ", out);
    }
}
