package io.zaris.resp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The commands this node understands, with Redis's arity and key positions, for {@code COMMAND},
 * {@code COMMAND COUNT/INFO/DOCS} and the generic arity check. Arity as Redis defines it: positive =
 * exact argument count including the name, negative = at least that many.
 */
final class CommandTable {

    record Spec(String name, int arity, List<String> flags, int firstKey, int lastKey, int step) {
    }

    static final Map<String, Spec> COMMANDS = new LinkedHashMap<>();

    static {
        add("ping", -1, "fast", 0, 0, 0);
        add("echo", 2, "fast", 0, 0, 0);
        add("hello", -1, "fast", 0, 0, 0);
        add("auth", -2, "fast", 0, 0, 0);
        add("select", 2, "fast", 0, 0, 0);
        add("client", -2, "admin", 0, 0, 0);
        add("command", -1, "loading", 0, 0, 0);
        add("info", -1, "loading", 0, 0, 0);
        add("config", -2, "admin", 0, 0, 0);
        add("dbsize", 1, "readonly", 0, 0, 0);
        add("quit", -1, "fast", 0, 0, 0);
        add("cluster", -2, "stale", 0, 0, 0);
        add("readonly", 1, "fast", 0, 0, 0);
        add("readwrite", 1, "fast", 0, 0, 0);
        add("asking", 1, "fast", 0, 0, 0);
        add("get", 2, "readonly", 1, 1, 1);
        add("set", -3, "write", 1, 1, 1);
        add("setnx", 3, "write", 1, 1, 1);
        add("setex", 4, "write", 1, 1, 1);
        add("psetex", 4, "write", 1, 1, 1);
        add("getset", 3, "write", 1, 1, 1);
        add("getdel", 2, "write", 1, 1, 1);
        add("getex", -2, "write", 1, 1, 1);
        add("mget", -2, "readonly", 1, -1, 1);
        add("mset", -3, "write", 1, -1, 2);
        add("msetnx", -3, "write", 1, -1, 2);
        add("del", -2, "write", 1, -1, 1);
        add("unlink", -2, "write", 1, -1, 1);
        add("exists", -2, "readonly", 1, -1, 1);
        add("type", 2, "readonly", 1, 1, 1);
        add("expire", -3, "write", 1, 1, 1);
        add("pexpire", -3, "write", 1, 1, 1);
        add("expireat", -3, "write", 1, 1, 1);
        add("pexpireat", -3, "write", 1, 1, 1);
        add("ttl", 2, "readonly", 1, 1, 1);
        add("pttl", 2, "readonly", 1, 1, 1);
        add("persist", 2, "write", 1, 1, 1);
        add("incr", 2, "write", 1, 1, 1);
        add("decr", 2, "write", 1, 1, 1);
        add("incrby", 3, "write", 1, 1, 1);
        add("decrby", 3, "write", 1, 1, 1);
        add("append", 3, "write", 1, 1, 1);
        add("strlen", 2, "readonly", 1, 1, 1);
        add("scan", -2, "readonly", 0, 0, 0);
        add("keys", 2, "readonly", 0, 0, 0);
    }

    private CommandTable() {
    }

    private static void add(String name, int arity, String flag, int first, int last, int step) {
        COMMANDS.put(name, new Spec(name, arity, List.of(flag), first, last, step));
    }

    static boolean arityOk(Spec spec, int argc) {
        return spec.arity() >= 0 ? argc == spec.arity() : argc >= -spec.arity();
    }

    /** {@code COMMAND INFO} entry in Redis 7's ten-field shape (the last four empty). */
    static RespReply info(Spec spec) {
        List<RespReply> flags = new ArrayList<>();
        for (String flag : spec.flags()) {
            flags.add(new RespReply.Simple(flag));
        }
        return RespReply.array(List.of(RespReply.bulk(spec.name()), RespReply.integer(spec.arity()), RespReply.array(flags),
                RespReply.integer(spec.firstKey()), RespReply.integer(spec.lastKey()), RespReply.integer(spec.step()),
                RespReply.array(List.of()), RespReply.array(List.of()), RespReply.array(List.of()), RespReply.array(List.of())));
    }
}
