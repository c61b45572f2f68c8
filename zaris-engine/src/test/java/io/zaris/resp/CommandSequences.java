package io.zaris.resp;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * A seeded generator of inline command sequences across every type the RESP port serves, for comparing Zaris with a
 * real Redis: strings, generic key commands, hashes, lists, sets and sorted sets over a small key space whose keys
 * all carry the hash tag {@code {t}} (one slot, so multi-key commands are legal). Arguments come from pools that hold
 * Redis's edge cases (bad and overflowing numbers, empty strings, −0 and ±inf scores, out-of-range and negative
 * indexes, missing keys), and a share of commands go to a key of another type (WRONGTYPE) or lose an argument (wrong
 * arity). The same seed gives the same sequence.
 *
 * <p>Only commands whose effect is not left to chance or to the clock are generated: SPOP takes a count that empties
 * the set, expiries are far in the future (or already past, which deletes), blocking pops wait 10 ms, and the replies
 * that do depend on chance or time (SRANDMEMBER, HRANDFIELD, ZRANDMEMBER, TTL) are normalized by
 * {@link DifferentialReplies}. Lex ranges go to one sorted set whose
 * members all score 0, the only case where Redis defines them.
 */
final class CommandSequences {

    /** Every key a sequence touches, for the DEL that resets both servers after it. */
    static final List<String> KEYS = List.of("{t}s0", "{t}s1", "{t}h0", "{t}h1", "{t}l0", "{t}l1", "{t}e0", "{t}e1",
            "{t}z0", "{t}z1", "{t}lex", "{t}none");

    private static final String[] STRING_KEYS = {"{t}s0", "{t}s1"};
    private static final String[] HASH_KEYS = {"{t}h0", "{t}h1"};
    private static final String[] LIST_KEYS = {"{t}l0", "{t}l1"};
    private static final String[] SET_KEYS = {"{t}e0", "{t}e1"};
    private static final String[] ZSET_KEYS = {"{t}z0", "{t}z1"};

    private static final String[] VALUES = {"v", "a", "hello", "\"\"", "1", "-1", "10", "0", "3.5", "9223372036854775807",
        "-9223372036854775808", "007", "1e3"};
    private static final String[] INTEGERS = {"0", "1", "-1", "2", "10", "-100", "9223372036854775807", "-9223372036854775808",
        "x", "1.5", "\"\"", "+1", "01", "99999999999999999999"};
    private static final String[] FLOATS = {"0", "1", "-1", "0.5", "1.5", "-2.25", "1e3", "inf", "-inf", "nan", "x", "\"\"",
        "0.1", "1e308", "3"};
    private static final String[] INDEXES = {"0", "1", "-1", "-2", "2", "3", "5", "-10", "100", "x", "\"\""};
    /** Expiries in seconds: far enough that none passes during a run, or refused, or already past. */
    private static final String[] EXPIRES = {"100", "1000", "10000", "0", "-1", "x", "\"\"", "9223372036854775807"};
    /** The same in milliseconds. */
    private static final String[] MILLIS = {"100000", "1000000", "0", "-1", "x", "\"\"", "9223372036854775807"};
    private static final String[] FIELDS = {"f", "g", "h", "i", "n"};
    private static final String[] ELEMENTS = {"a", "b", "c", "d", "1", "2"};

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

    CommandSequences(long seed) {
        this.random = new Random(seed);
    }

    /** The seed of sequence {@code sequence} of a run started with {@code seed}: distinct for every pair. */
    static long seedOf(long seed, int sequence) {
        return seed * 1_000_003L + sequence;
    }

    /** {@code count} commands, one inline command each. */
    List<String> next(int count) {
        List<String> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String command = command();
            if (random.nextInt(40) == 0 && !command.startsWith("SPOP ")) { // SPOP without its count would pop at random
                command = dropLastArgument(command); // wrong arity, or a valid shorter form
            }
            out.add(command);
        }
        return out;
    }

    private String command() {
        int family = random.nextInt(100);
        if (family < 18) {
            return string(key(STRING_KEYS));
        } else if (family < 28) {
            return generic(anyKey());
        } else if (family < 46) {
            return hash(key(HASH_KEYS));
        } else if (family < 62) {
            return list(key(LIST_KEYS));
        } else if (family < 78) {
            return setCommand(key(SET_KEYS));
        } else if (family < 94) {
            return sortedSet(key(ZSET_KEYS));
        } else {
            return lex();
        }
    }

    /** Mostly a key of the family's own type; one time in eight any key (another type: WRONGTYPE, or a missing key). */
    private String key(String[] own) {
        return random.nextInt(8) == 0 ? anyKey() : one(own);
    }

    private String anyKey() {
        return KEYS.get(random.nextInt(KEYS.size()));
    }

    private String string(String key) {
        return switch (random.nextInt(20)) {
            case 0, 1, 2 -> set(key);
            case 3 -> "GET " + key;
            case 4 -> (random.nextBoolean() ? "INCR " : "DECR ") + key;
            case 5 -> (random.nextBoolean() ? "INCRBY " : "DECRBY ") + key + " " + one(INTEGERS);
            case 6 -> "APPEND " + key + " " + one(VALUES);
            case 7 -> "STRLEN " + key;
            case 8 -> "GETDEL " + key;
            case 9 -> "GETSET " + key + " " + one(VALUES);
            case 10 -> "SETNX " + key + " " + one(VALUES);
            case 11 -> "MGET " + key + " " + one(STRING_KEYS) + " " + anyKey();
            case 12 -> "MSET " + key + " " + one(VALUES) + " " + one(STRING_KEYS) + " " + one(VALUES);
            case 13 -> "MSETNX " + key + " " + one(VALUES) + " " + one(STRING_KEYS) + " " + one(VALUES);
            case 14 -> "GETEX " + key + switch (random.nextInt(5)) {
                case 0 -> "";
                case 1 -> " PERSIST";
                case 2 -> " EX " + one(EXPIRES);
                case 3 -> " PX " + one(MILLIS);
                default -> " EX 100 PERSIST"; // a syntax error
            };
            case 15 -> "SETEX " + key + " " + one(EXPIRES) + " " + one(VALUES);
            case 16 -> "PSETEX " + key + " " + one(MILLIS) + " " + one(VALUES);
            case 17 -> "INCRBY " + key + " " + one(INTEGERS);
            default -> "SET " + key + " " + one(VALUES);
        };
    }

    private String set(String key) {
        List<String> options = new ArrayList<>();
        if (random.nextInt(3) == 0) {
            options.add(one(new String[] {"NX", "XX"}));
        }
        if (random.nextInt(3) == 0) {
            options.add(switch (random.nextInt(6)) {
                case 0 -> "EX " + one(EXPIRES);
                case 1 -> "PX " + one(MILLIS);
                case 2 -> "EXAT 4102444800";
                case 3 -> "PXAT 4102444800000";
                case 4 -> "KEEPTTL";
                default -> "EX";
            });
        }
        if (random.nextInt(4) == 0) {
            options.add("GET");
        }
        if (random.nextInt(20) == 0) {
            options.add(one(new String[] {"NX", "KEEPTTL", "EX 5", "BOGUS"})); // a conflict or an unknown option
        }
        Collections.shuffle(options, random);
        return "SET " + key + " " + one(VALUES) + (options.isEmpty() ? "" : " " + String.join(" ", options));
    }

    private String generic(String key) {
        return switch (random.nextInt(18)) {
            case 0, 1 -> "TYPE " + key;
            case 2 -> "EXISTS " + key + (random.nextBoolean() ? "" : " " + anyKey() + " " + key);
            case 3 -> "DEL " + key + (random.nextBoolean() ? "" : " " + anyKey());
            case 4 -> "UNLINK " + key;
            case 5, 6 -> "EXPIRE " + key + " " + one(EXPIRES) + (random.nextInt(3) == 0 ? " " + one(new String[] {"NX", "XX", "YY"}) : "");
            case 7 -> "PEXPIRE " + key + " " + one(new String[] {"100000", "0", "-1", "0000", "1e5", "x"});
            case 8 -> "EXPIREAT " + key + " " + one(new String[] {"4102444800", "1", "0", "x"});
            case 9 -> "PERSIST " + key;
            case 10, 11 -> "TTL " + key;
            case 12 -> "PTTL " + key;
            case 13 -> (random.nextBoolean() ? "RENAME " : "RENAMENX ") + key + " " + anyKey();
            // Any key: a SET with NX, XX, KEEPTTL or GET, GETSET and a conditional expiry meet every type.
            case 14 -> set(key);
            case 15 -> "GETSET " + key + " " + one(VALUES);
            case 16 -> (random.nextBoolean() ? "EXPIRE " : "PEXPIRE ") + key + " "
                    + one(new String[] {"100", "1000", "100000", "0", "-1"}) + " " + expiryConditions();
            default -> "TYPE " + key;
        };
    }

    /** One or two of EXPIRE's conditions, Redis's refused combinations and an unknown one among them. */
    private String expiryConditions() {
        String[] conditions = {"NX", "XX", "GT", "LT", "YY"};
        String first = one(conditions);
        return random.nextInt(3) == 0 ? first + " " + one(conditions) : first;
    }

    private String hash(String key) {
        return switch (random.nextInt(22)) {
            case 20, 21 -> "HRANDFIELD " + key + randomCount("WITHVALUES");
            case 0, 1, 2 -> "HSET " + key + pairs(FIELDS, VALUES, 1 + random.nextInt(3)) + (random.nextInt(15) == 0 ? " f" : "");
            case 3 -> "HMSET " + key + pairs(FIELDS, VALUES, 1 + random.nextInt(2));
            case 4 -> "HSETNX " + key + " " + one(FIELDS) + " " + one(VALUES);
            case 5, 6 -> "HGET " + key + " " + one(FIELDS);
            case 7 -> "HMGET " + key + " " + some(FIELDS, 1 + random.nextInt(3));
            case 8 -> "HDEL " + key + " " + some(FIELDS, 1 + random.nextInt(2));
            case 9 -> "HGETALL " + key;
            case 10 -> (random.nextBoolean() ? "HKEYS " : "HVALS ") + key;
            case 11 -> "HLEN " + key;
            case 12 -> "HEXISTS " + key + " " + one(FIELDS);
            case 13 -> "HSTRLEN " + key + " " + one(FIELDS);
            case 14, 15 -> "HINCRBY " + key + " " + one(FIELDS) + " " + one(INTEGERS);
            case 16, 17 -> "HINCRBYFLOAT " + key + " " + one(FIELDS) + " " + one(FLOATS);
            // Cursors other than 0 and counts below the hash's size are not compared: Zaris answers a whole hash in one
            // call with cursor 0, Redis may split a large one across calls.
            case 18 -> "HSCAN " + key + " " + one(new String[] {"0", "0", "x"})
                    + (random.nextBoolean() ? "" : " MATCH " + one(new String[] {"*", "f*", "[g-i]", "?"}))
                    + (random.nextBoolean() ? "" : " COUNT " + one(new String[] {"10", "0", "x"}));
            default -> "HGET " + key + " " + one(FIELDS);
        };
    }

    private String list(String key) {
        String side = random.nextBoolean() ? "LEFT" : "RIGHT";
        return switch (random.nextInt(23)) {
            case 20, 21 -> "LMPOP " + multiPop(key, LIST_KEYS, side);
            case 22 -> "BLMPOP " + one(new String[] {"0.01", "0.01", "-1", "x"}) + " " + multiPop(key, LIST_KEYS, side);
            case 0, 1, 2 -> (random.nextBoolean() ? "LPUSH " : "RPUSH ") + key + " " + some(ELEMENTS, 1 + random.nextInt(3));
            case 3 -> (random.nextBoolean() ? "LPUSHX " : "RPUSHX ") + key + " " + one(ELEMENTS);
            case 4, 5 -> (random.nextBoolean() ? "LPOP " : "RPOP ") + key + (random.nextBoolean() ? "" : " " + one(COUNTS));
            case 6, 7 -> "LRANGE " + key + " " + one(INDEXES) + " " + one(INDEXES);
            case 8 -> "LINDEX " + key + " " + one(INDEXES);
            case 9 -> "LSET " + key + " " + one(INDEXES) + " " + one(ELEMENTS);
            case 10 -> "LREM " + key + " " + one(INDEXES) + " " + one(ELEMENTS);
            case 11 -> "LTRIM " + key + " " + one(INDEXES) + " " + one(INDEXES);
            case 12 -> "LMOVE " + key + " " + key(LIST_KEYS) + " " + side + " " + one(new String[] {"LEFT", "RIGHT", "UP"});
            case 13 -> "LINSERT " + key + " " + one(new String[] {"BEFORE", "AFTER", "AT"}) + " " + one(ELEMENTS) + " i";
            case 14 -> "LPOS " + key + " " + one(ELEMENTS) + (random.nextBoolean() ? "" : " RANK " + one(INDEXES))
                    + (random.nextBoolean() ? "" : " COUNT " + one(COUNTS))
                    + (random.nextBoolean() ? "" : " MAXLEN " + one(COUNTS));
            case 15 -> (random.nextBoolean() ? "BLPOP " : "BRPOP ") + key + " " + one(LIST_KEYS) + " "
                    + one(new String[] {"0.01", "0.01", "-1", "x"});
            case 16 -> "BLMOVE " + key + " " + one(LIST_KEYS) + " " + side + " " + side + " " + one(new String[] {"0.01", "-1"});
            default -> "LLEN " + key;
        };
    }

    private String setCommand(String key) {
        String other = one(SET_KEYS);
        return switch (random.nextInt(22)) {
            case 20, 21 -> "SMOVE " + key + " " + key(SET_KEYS) + " " + one(ELEMENTS);
            case 0, 1, 2, 3 -> "SADD " + key + " " + some(ELEMENTS, 1 + random.nextInt(3));
            case 4, 5 -> "SREM " + key + " " + some(ELEMENTS, 1 + random.nextInt(2));
            case 6 -> "SMEMBERS " + key;
            case 7 -> "SISMEMBER " + key + " " + one(ELEMENTS);
            case 8 -> "SMISMEMBER " + key + " " + some(ELEMENTS, 1 + random.nextInt(3));
            case 9 -> "SCARD " + key;
            case 10 -> "SPOP " + key + " " + one(new String[] {"100", "0", "-1", "x"}); // takes all, or refuses
            case 11 -> "SRANDMEMBER " + key + (random.nextBoolean() ? "" : " " + one(new String[] {"100", "2", "-3", "0", "x"}));
            case 12 -> "SSCAN " + key + " 0" + (random.nextBoolean() ? "" : " MATCH " + one(new String[] {"*", "a*", "[b-d]", "?"}));
            case 13 -> "SINTER " + key + " " + other;
            case 14 -> "SUNION " + key + " " + other + (random.nextBoolean() ? "" : " {t}none");
            case 15 -> "SDIFF " + key + " " + other;
            case 16 -> one(new String[] {"SINTERSTORE ", "SUNIONSTORE ", "SDIFFSTORE "}) + key(SET_KEYS) + " " + key + " " + other;
            // never a count that makes LIMIT a key (of another slot: CROSSSLOT, which a standalone Redis never answers)
            case 17 -> "SINTERCARD " + one(new String[] {"2", "2", "1", "5", "0", "x"}) + " " + key + " " + other
                    + (random.nextBoolean() ? "" : " LIMIT " + one(new String[] {"0", "1", "2", "-1", "x"}));
            default -> "SISMEMBER " + key + " " + one(ELEMENTS);
        };
    }

    private String sortedSet(String key) {
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
        } else if (pick < 87) {
            return zcombine(key);
        } else if (pick < 90) {
            String side = one(new String[] {"MIN", "MAX", "MAX", "MIN", "LEFT"});
            return random.nextInt(3) == 0 ? "BZMPOP " + one(new String[] {"0.01", "0.01", "-1"}) + " " + multiPop(key, ZSET_KEYS, side)
                    : "ZMPOP " + multiPop(key, ZSET_KEYS, side);
        } else if (pick < 92) {
            return (random.nextBoolean() ? "BZPOPMIN " : "BZPOPMAX ") + key + (random.nextBoolean() ? "" : " " + key(ZSET_KEYS))
                    + " " + one(new String[] {"0.01", "0.01", "-1", "x"});
        } else if (pick < 95) {
            return "ZRANDMEMBER " + key + randomCount("WITHSCORES");
        } else {
            return zadd(key);
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
        String key = "{t}lex";
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

    /**
     * ZUNION, ZINTER, ZDIFF (their STORE forms, ZINTERCARD) over sorted sets, sets (score 1), missing keys and now and
     * then a key of another type, with WEIGHTS (bad ones too), AGGREGATE and WITHSCORES in any order, and numkeys that
     * may be wrong; never a numkeys that would make an option a key (of another slot), which a standalone Redis
     * would not refuse with CROSSSLOT.
     */
    private String zcombine(String key) {
        String name = one(new String[] {"ZUNION", "ZINTER", "ZDIFF", "ZUNIONSTORE", "ZINTERSTORE", "ZDIFFSTORE", "ZINTERCARD"});
        int keys = 1 + random.nextInt(3);
        List<String> sources = new ArrayList<>();
        sources.add(key);
        for (int i = 1; i < keys; i++) {
            sources.add(random.nextInt(4) == 0 ? key(SET_KEYS) : key(ZSET_KEYS));
        }
        String numkeys = random.nextInt(12) == 0 ? one(new String[] {"0", "x", "-1"}) : Integer.toString(keys);
        List<String> options = new ArrayList<>();
        if (random.nextInt(3) == 0) {
            StringBuilder weights = new StringBuilder("WEIGHTS");
            int count = random.nextInt(10) == 0 ? keys + 1 : keys; // one too many: a syntax error
            for (int i = 0; i < count; i++) {
                weights.append(' ').append(one(new String[] {"1", "2", "-1", "0", "0.5", "inf", "-inf", "x", "3"}));
            }
            options.add(weights.toString());
        }
        if (random.nextInt(3) == 0) {
            options.add("AGGREGATE " + one(new String[] {"SUM", "MIN", "MAX", "max", "AVG"}));
        }
        if (random.nextInt(3) == 0) {
            options.add("WITHSCORES");
        }
        if (name.equals("ZINTERCARD") && random.nextBoolean()) {
            options.add("LIMIT " + one(new String[] {"0", "1", "2", "-1", "x"}));
        }
        Collections.shuffle(options, random);
        String destination = name.endsWith("STORE") ? " " + one(new String[] {"{t}z0", "{t}z1", "{t}e0", "{t}s0", "{t}none"}) : "";
        return name + destination + " " + numkeys + " " + String.join(" ", sources) + (options.isEmpty() ? "" : " "
                + String.join(" ", options));
    }

    /** numkeys key… side [COUNT n] of LMPOP and ZMPOP (and their blocking forms), numkeys never past the keys. */
    private String multiPop(String key, String[] own, String side) {
        int keys = 1 + random.nextInt(2);
        String list = keys == 1 ? key : key + " " + key(own);
        String numkeys = random.nextInt(12) == 0 ? one(new String[] {"0", "x", "-1"}) : Integer.toString(keys);
        String count = switch (random.nextInt(6)) {
            case 0, 1, 2 -> "";
            case 3 -> " COUNT " + one(new String[] {"1", "2", "10", "0", "-1", "x"});
            case 4 -> " COUNT 2 COUNT 1"; // twice: a syntax error
            default -> " COUNT";
        };
        return numkeys + " " + list + " " + side + count;
    }

    /** [count [option]] of HRANDFIELD and ZRANDMEMBER: no count, a count that takes everything, or any other. */
    private String randomCount(String option) {
        if (random.nextInt(4) == 0) {
            return "";
        }
        String count = one(new String[] {"100", "100", "2", "-3", "0", "1", "-1", "x", "9223372036854775807",
            "-9223372036854775808"});
        return " " + count + (random.nextBoolean() ? " " + option : random.nextInt(10) == 0 ? " BOGUS" : "");
    }

    private String pairs(String[] names, String[] values, int count) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < count; i++) {
            out.append(' ').append(one(names)).append(' ').append(one(values));
        }
        return out.toString();
    }

    private static String dropLastArgument(String command) {
        int space = command.lastIndexOf(' ');
        return space < 0 ? command : command.substring(0, space);
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
