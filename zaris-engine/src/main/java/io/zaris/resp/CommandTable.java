package io.zaris.resp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The commands this node understands, with Redis's arity, key positions and documentation (group, the Redis
 * version that introduced it, complexity, a summary of what Zaris does with it), for {@code COMMAND},
 * {@code COMMAND COUNT/INFO/DOCS} and the generic arity check. Arity as Redis defines it: positive =
 * exact argument count including the name, negative = at least that many.
 */
final class CommandTable {

    record Spec(String name, int arity, List<String> flags, int firstKey, int lastKey, int step, Docs docs) {
    }

    /** What {@code COMMAND DOCS} says of a command; the group is Redis's (connection, server, cluster, string, hash, set, sorted-set, list, generic, pubsub). */
    record Docs(String group, String since, String complexity, String summary) {
    }

    static final Map<String, Spec> COMMANDS = new LinkedHashMap<>();

    static {
        add("ping", -1, "fast", 0, 0, 0,
                "connection", "1.0.0", "O(1)", "Answers PONG, or echoes its argument.");
        add("echo", 2, "fast", 0, 0, 0,
                "connection", "1.0.0", "O(1)", "Returns its argument.");
        add("hello", -1, "fast", 0, 0, 0,
                "connection", "6.0.0", "O(1)", "Picks RESP2 or RESP3, optionally logs in and names the connection; returns server facts.");
        add("auth", -2, "fast", 0, 0, 0,
                "connection", "1.0.0", "O(1)", "Logs the connection in.");
        add("select", 2, "fast", 0, 0, 0,
                "connection", "1.0.0", "O(1)", "Selects database 0, the only one in cluster mode.");
        add("client", -2, "admin", 0, 0, 0,
                "connection", "2.4.0", "depends on the subcommand", "Names and describes this connection (SETNAME, GETNAME, ID, SETINFO, INFO, LIST) and turns on "
                        + "server-assisted client-side caching (TRACKING, TRACKINGINFO, CACHING, GETREDIR; over RESP2 with REDIRECT).");
        add("command", -1, "loading", 0, 0, 0,
                "server", "2.8.13", "O(N) for N commands", "Describes the commands this node understands (COUNT, DOCS, INFO, LIST).");
        add("info", -1, "loading", 0, 0, 0,
                "server", "1.0.0", "O(1)", "Reports server, clients, memory, stats, cluster and keyspace figures of this node.");
        add("config", -2, "admin", 0, 0, 0,
                "server", "2.0.0", "depends on the subcommand", "Reads configuration parameters (GET only).");
        add("dbsize", 1, "readonly", 0, 0, 0,
                "server", "1.0.0", "O(1)", "Counts the keys of the slots this node serves.");
        add("quit", -1, "fast", 0, 0, 0,
                "connection", "1.0.0", "O(1)", "Answers OK and closes the connection.");
        add("cluster", -2, "stale", 0, 0, 0,
                "cluster", "3.0.0", "depends on the subcommand", "Reports the cluster topology (SLOTS, SHARDS, NODES, INFO, MYID, KEYSLOT, COUNTKEYSINSLOT).");
        add("readonly", 1, "fast", 0, 0, 0,
                "cluster", "3.0.0", "O(1)", "Accepted for Redis Cluster clients; reads are served by the active owner.");
        add("readwrite", 1, "fast", 0, 0, 0,
                "cluster", "3.0.0", "O(1)", "Accepted for Redis Cluster clients; undoes READONLY.");
        add("asking", 1, "fast", 0, 0, 0,
                "cluster", "3.0.0", "O(1)", "Accepted for Redis Cluster clients that follow an ASK redirect.");
        add("reset", 1, "fast", 0, 0, 0,
                "connection", "6.2.0", "O(1)", "Ends subscriptions and tracking, returns to RESP2 and clears the connection's name; stays logged in.");
        add("subscribe", -2, "pubsub", 0, 0, 0,
                "pubsub", "2.0.0", "O(N) for N channels", "Subscribes the connection to channels; a PUBLISH on any node reaches it.");
        add("psubscribe", -2, "pubsub", 0, 0, 0,
                "pubsub", "2.0.0", "O(N) for N patterns", "Subscribes the connection to glob patterns of channel names.");
        add("unsubscribe", -1, "pubsub", 0, 0, 0,
                "pubsub", "2.0.0", "O(N) for N channels", "Unsubscribes the connection from channels, or from all.");
        add("punsubscribe", -1, "pubsub", 0, 0, 0,
                "pubsub", "2.0.0", "O(N) for N patterns", "Unsubscribes the connection from patterns, or from all.");
        add("publish", 3, "pubsub", 0, 0, 0,
                "pubsub", "2.0.0", "O(N+M) for N subscribers and M patterns", "Posts a message to a channel; answers the deliveries made on this node.");
        add("pubsub", -2, "pubsub", 0, 0, 0,
                "pubsub", "2.8.0", "depends on the subcommand", "Reports this node's channels and subscribers (CHANNELS, NUMSUB, NUMPAT, SHARDCHANNELS, SHARDNUMSUB).");
        add("ssubscribe", -2, "pubsub", 1, -1, 1,
                "pubsub", "7.0.0", "O(N) for N shard channels", "Subscribes to shard channels of one slot, on the slot's owner.");
        add("sunsubscribe", -1, "pubsub", 1, -1, 1,
                "pubsub", "7.0.0", "O(N) for N shard channels", "Unsubscribes from shard channels, or from all.");
        add("spublish", 3, "pubsub", 1, 1, 1,
                "pubsub", "7.0.0", "O(N) for N subscribers", "Posts a message to a shard channel on the channel's slot owner.");
        add("get", 2, "readonly", 1, 1, 1,
                "string", "1.0.0", "O(1)", "Returns the value of a key.");
        add("set", -3, "write", 1, 1, 1,
                "string", "1.0.0", "O(1)", "Sets the value of a key, optionally with an expiry and a condition.");
        add("setnx", 3, "write", 1, 1, 1,
                "string", "1.0.0", "O(1)", "Sets the value of a key only if it does not exist.");
        add("setex", 4, "write", 1, 1, 1,
                "string", "2.0.0", "O(1)", "Sets the value of a key with an expiry in seconds.");
        add("psetex", 4, "write", 1, 1, 1,
                "string", "2.6.0", "O(1)", "Sets the value of a key with an expiry in milliseconds.");
        add("getset", 3, "write", 1, 1, 1,
                "string", "1.0.0", "O(1)", "Sets the value of a key and returns the previous value.");
        add("getdel", 2, "write", 1, 1, 1,
                "string", "6.2.0", "O(1)", "Returns the value of a key and deletes it.");
        add("getex", -2, "write", 1, 1, 1,
                "string", "6.2.0", "O(1)", "Returns the value of a key and sets or clears its expiry.");
        add("mget", -2, "readonly", 1, -1, 1,
                "string", "1.0.0", "O(N) for N keys", "Returns the values of keys in one slot.");
        add("mset", -3, "write", 1, -1, 2,
                "string", "1.0.1", "O(N) for N keys", "Sets keys in one slot.");
        add("msetnx", -3, "write", 1, -1, 2,
                "string", "1.0.1", "O(N) for N keys", "Sets keys in one slot only if none of them exists.");
        add("del", -2, "write", 1, -1, 1,
                "generic", "1.0.0", "O(N) for N keys", "Deletes keys in one slot.");
        add("unlink", -2, "write", 1, -1, 1,
                "generic", "4.0.0", "O(N) for N keys", "Deletes keys in one slot.");
        add("exists", -2, "readonly", 1, -1, 1,
                "generic", "1.0.0", "O(N) for N keys", "Counts how many of the keys exist.");
        add("type", 2, "readonly", 1, 1, 1,
                "generic", "1.0.0", "O(1)", "Returns the type of a key: string, hash, set, or none.");
        add("expire", -3, "write", 1, 1, 1,
                "generic", "1.0.0", "O(1)", "Sets the expiry of a key in seconds.");
        add("pexpire", -3, "write", 1, 1, 1,
                "generic", "2.6.0", "O(1)", "Sets the expiry of a key in milliseconds.");
        add("expireat", -3, "write", 1, 1, 1,
                "generic", "1.2.0", "O(1)", "Sets the expiry of a key to a Unix time in seconds.");
        add("pexpireat", -3, "write", 1, 1, 1,
                "generic", "2.6.0", "O(1)", "Sets the expiry of a key to a Unix time in milliseconds.");
        add("ttl", 2, "readonly", 1, 1, 1,
                "generic", "1.0.0", "O(1)", "Returns the remaining time to live of a key in seconds.");
        add("pttl", 2, "readonly", 1, 1, 1,
                "generic", "2.6.0", "O(1)", "Returns the remaining time to live of a key in milliseconds.");
        add("persist", 2, "write", 1, 1, 1,
                "generic", "2.2.0", "O(1)", "Removes the expiry of a key.");
        add("incr", 2, "write", 1, 1, 1,
                "string", "1.0.0", "O(1)", "Increments the integer value of a key by one.");
        add("decr", 2, "write", 1, 1, 1,
                "string", "1.0.0", "O(1)", "Decrements the integer value of a key by one.");
        add("incrby", 3, "write", 1, 1, 1,
                "string", "1.0.0", "O(1)", "Increments the integer value of a key by a number.");
        add("decrby", 3, "write", 1, 1, 1,
                "string", "1.0.0", "O(1)", "Decrements the integer value of a key by a number.");
        add("append", 3, "write", 1, 1, 1,
                "string", "2.0.0", "O(1)", "Appends to the value of a key.");
        add("strlen", 2, "readonly", 1, 1, 1,
                "string", "2.2.0", "O(1)", "Returns the length of the value of a key.");
        add("hset", -4, "write", 1, 1, 1,
                "hash", "2.0.0", "O(N) for N fields", "Sets fields of a hash; returns how many were added.");
        add("hmset", -4, "write", 1, 1, 1,
                "hash", "2.0.0", "O(N) for N fields", "Sets fields of a hash; answers OK.");
        add("hsetnx", 4, "write", 1, 1, 1,
                "hash", "2.0.0", "O(1)", "Sets a field of a hash only if it does not exist.");
        add("hget", 3, "readonly", 1, 1, 1,
                "hash", "2.0.0", "O(1)", "Returns the value of a field of a hash.");
        add("hmget", -3, "readonly", 1, 1, 1,
                "hash", "2.0.0", "O(N) for N fields", "Returns the values of fields of a hash.");
        add("hdel", -3, "write", 1, 1, 1,
                "hash", "2.0.0", "O(N) for N fields", "Removes fields of a hash; a hash without fields is removed.");
        add("hgetall", 2, "readonly", 1, 1, 1,
                "hash", "2.0.0", "O(N) for N fields", "Returns every field and value of a hash.");
        add("hkeys", 2, "readonly", 1, 1, 1,
                "hash", "2.0.0", "O(N) for N fields", "Returns the fields of a hash.");
        add("hvals", 2, "readonly", 1, 1, 1,
                "hash", "2.0.0", "O(N) for N fields", "Returns the values of a hash.");
        add("hlen", 2, "readonly", 1, 1, 1,
                "hash", "2.0.0", "O(1)", "Returns the number of fields of a hash.");
        add("hexists", 3, "readonly", 1, 1, 1,
                "hash", "2.0.0", "O(1)", "Returns whether a field of a hash exists.");
        add("hstrlen", 3, "readonly", 1, 1, 1,
                "hash", "3.2.0", "O(1)", "Returns the length of the value of a field of a hash.");
        add("hincrby", 4, "write", 1, 1, 1,
                "hash", "2.0.0", "O(1)", "Increments the integer value of a field of a hash by a number.");
        add("hincrbyfloat", 4, "write", 1, 1, 1,
                "hash", "2.6.0", "O(1)", "Increments the floating-point value of a field of a hash by a number.");
        add("hscan", -3, "readonly", 1, 1, 1,
                "hash", "2.8.0", "O(N) for N fields", "Iterates over the fields of a hash: one call returns them all, with cursor 0.");
        add("sadd", -3, "write", 1, 1, 1,
                "set", "1.0.0", "O(N) for N members", "Adds members to a set; returns how many were added.");
        add("srem", -3, "write", 1, 1, 1,
                "set", "1.0.0", "O(N) for N members", "Removes members of a set; a set without members is removed.");
        add("smembers", 2, "readonly", 1, 1, 1,
                "set", "1.0.0", "O(N) for N members", "Returns every member of a set.");
        add("sismember", 3, "readonly", 1, 1, 1,
                "set", "1.0.0", "O(1)", "Returns whether a member is in a set.");
        add("smismember", -3, "readonly", 1, 1, 1,
                "set", "6.2.0", "O(N) for N members", "Returns whether each of several members is in a set.");
        add("scard", 2, "readonly", 1, 1, 1,
                "set", "1.0.0", "O(1)", "Returns the number of members of a set.");
        add("spop", -2, "write", 1, 1, 1,
                "set", "1.0.0", "O(N) for a set of N members", "Removes and returns one or more members of a set at random.");
        add("srandmember", -2, "readonly", 1, 1, 1,
                "set", "1.0.0", "O(N) for a set of N members", "Returns one or more members of a set at random.");
        add("sscan", -3, "readonly", 1, 1, 1,
                "set", "2.8.0", "O(N) for N members", "Iterates over the members of a set: one call returns them all, with cursor 0.");
        add("sinter", -2, "readonly", 1, -1, 1,
                "set", "1.0.0", "O(N*M)", "Returns the members every given set holds; the keys share one slot.");
        add("sunion", -2, "readonly", 1, -1, 1,
                "set", "1.0.0", "O(N) for N members in all", "Returns the members any given set holds; the keys share one slot.");
        add("sdiff", -2, "readonly", 1, -1, 1,
                "set", "1.0.0", "O(N) for N members in all", "Returns the members of the first set the others lack; the keys share one slot.");
        add("sintercard", -3, "readonly", 0, 0, 0,
                "set", "7.0.0", "O(N*M)", "Counts the members every given set holds (numkeys, then the keys, then LIMIT); the keys share one slot.");
        add("sinterstore", -3, "write", 1, -1, 1,
                "set", "1.0.0", "O(N*M)", "Stores the members every given set holds at the destination; the keys share one slot.");
        add("sunionstore", -3, "write", 1, -1, 1,
                "set", "1.0.0", "O(N) for N members in all", "Stores the members any given set holds at the destination; the keys share one slot.");
        add("sdiffstore", -3, "write", 1, -1, 1,
                "set", "1.0.0", "O(N) for N members in all", "Stores the members of the first set the others lack at the destination; the keys share one slot.");
        add("lpush", -3, "write", 1, 1, 1,
                "list", "1.0.0", "O(N) for N elements", "Pushes elements at the head of a list, one after the other; returns its length.");
        add("rpush", -3, "write", 1, 1, 1,
                "list", "1.0.0", "O(N) for N elements", "Pushes elements at the tail of a list; returns its length.");
        add("lpushx", -3, "write", 1, 1, 1,
                "list", "2.2.0", "O(N) for N elements", "Pushes elements at the head of a list only if it exists.");
        add("rpushx", -3, "write", 1, 1, 1,
                "list", "2.2.0", "O(N) for N elements", "Pushes elements at the tail of a list only if it exists.");
        add("lpop", -2, "write", 1, 1, 1,
                "list", "1.0.0", "O(N) for N elements popped", "Removes and returns elements from the head of a list; an emptied list is removed.");
        add("rpop", -2, "write", 1, 1, 1,
                "list", "1.0.0", "O(N) for N elements popped", "Removes and returns elements from the tail of a list; an emptied list is removed.");
        add("lrange", 4, "readonly", 1, 1, 1,
                "list", "1.0.0", "O(S+N)", "Returns the elements of a list from start to stop (negative: from the end).");
        add("llen", 2, "readonly", 1, 1, 1,
                "list", "1.0.0", "O(1)", "Returns the length of a list.");
        add("lindex", 3, "readonly", 1, 1, 1,
                "list", "1.0.0", "O(1)", "Returns the element at an index of a list.");
        add("lset", 4, "write", 1, 1, 1,
                "list", "1.0.0", "O(1)", "Replaces the element at an index of a list.");
        add("lrem", 4, "write", 1, 1, 1,
                "list", "1.0.0", "O(N+M)", "Removes occurrences of an element from a list, from the head or the tail.");
        add("ltrim", 4, "write", 1, 1, 1,
                "list", "1.0.0", "O(N) for N elements removed", "Keeps only the elements of a list from start to stop.");
        add("lmove", 5, "write", 1, 2, 1,
                "list", "6.2.0", "O(1)", "Pops an element from one end of a list and pushes it at an end of another of the same slot.");
        add("linsert", 5, "write", 1, 1, 1,
                "list", "2.2.0", "O(N)", "Inserts an element before or after the first occurrence of a pivot.");
        add("lpos", -3, "readonly", 1, 1, 1,
                "list", "6.0.6", "O(N)", "Returns the indexes of an element in a list (RANK, COUNT, MAXLEN).");
        add("blpop", -3, "write", 1, -2, 1,
                "list", "2.0.0", "O(N) for N keys", "Pops the head of the first non-empty list of keys in one slot, blocking until one has an element or the timeout.");
        add("brpop", -3, "write", 1, -2, 1,
                "list", "2.0.0", "O(N) for N keys", "Pops the tail of the first non-empty list of keys in one slot, blocking until one has an element or the timeout.");
        add("blmove", 6, "write", 1, 2, 1,
                "list", "6.2.0", "O(1)", "LMOVE, blocking while the source list is empty, until the timeout.");
        add("zadd", -4, "write", 1, 1, 1,
                "sorted-set", "1.2.0", "O(log(N)) per member added or updated", "Adds members with scores, or updates their scores (NX, XX, GT, LT, CH, INCR); returns how many were added.");
        add("zincrby", 4, "write", 1, 1, 1,
                "sorted-set", "1.2.0", "O(log(N))", "Increments the score of a member; returns its new score.");
        add("zrem", -3, "write", 1, 1, 1,
                "sorted-set", "1.2.0", "O(M*log(N)) for M members", "Removes members; a sorted set without members is removed.");
        add("zscore", 3, "readonly", 1, 1, 1,
                "sorted-set", "1.2.0", "O(1)", "Returns the score of a member.");
        add("zmscore", -3, "readonly", 1, 1, 1,
                "sorted-set", "6.2.0", "O(N) for N members", "Returns the score of each of several members.");
        add("zcard", 2, "readonly", 1, 1, 1,
                "sorted-set", "1.2.0", "O(1)", "Returns the number of members.");
        add("zcount", 4, "readonly", 1, 1, 1,
                "sorted-set", "2.0.0", "O(log(N)+M) for M members in the range", "Counts the members with scores within a range.");
        add("zlexcount", 4, "readonly", 1, 1, 1,
                "sorted-set", "2.8.9", "O(N)", "Counts the members within a range of members (of one score).");
        add("zrank", -3, "readonly", 1, 1, 1,
                "sorted-set", "2.0.0", "O(rank)", "Returns the rank of a member, lowest score first (WITHSCORE: and its score).");
        add("zrevrank", -3, "readonly", 1, 1, 1,
                "sorted-set", "2.0.0", "O(rank)", "Returns the rank of a member, highest score first (WITHSCORE: and its score).");
        add("zrange", -4, "readonly", 1, 1, 1,
                "sorted-set", "1.2.0", "O(start+M) for M members returned", "Returns members in a range of ranks, scores (BYSCORE) or members (BYLEX), optionally reversed, limited and with scores.");
        add("zrangebyscore", -4, "readonly", 1, 1, 1,
                "sorted-set", "1.0.5", "O(log(N)+M) for M members returned", "Returns members within a range of scores.");
        add("zrevrangebyscore", -4, "readonly", 1, 1, 1,
                "sorted-set", "2.2.0", "O(log(N)+M) for M members returned", "Returns members within a range of scores, highest first.");
        add("zrevrange", -4, "readonly", 1, 1, 1,
                "sorted-set", "1.2.0", "O(start+M) for M members returned", "Returns members in a range of ranks, highest score first.");
        add("zrangebylex", -4, "readonly", 1, 1, 1,
                "sorted-set", "2.8.9", "O(N)", "Returns members within a range of members (of one score).");
        add("zrevrangebylex", -4, "readonly", 1, 1, 1,
                "sorted-set", "2.8.9", "O(N)", "Returns members within a range of members (of one score), highest first.");
        add("zremrangebyscore", 4, "write", 1, 1, 1,
                "sorted-set", "1.2.0", "O(log(N)+M) for M members removed", "Removes the members within a range of scores; each removal is replicated.");
        add("zremrangebyrank", 4, "write", 1, 1, 1,
                "sorted-set", "2.0.0", "O(start+M) for M members removed", "Removes the members within a range of ranks; each removal is replicated.");
        add("zremrangebylex", 4, "write", 1, 1, 1,
                "sorted-set", "2.8.9", "O(N)", "Removes the members within a range of members; each removal is replicated.");
        add("zpopmin", -2, "write", 1, 1, 1,
                "sorted-set", "5.0.0", "O(M*log(N)) for M members popped", "Removes and returns the members with the lowest scores.");
        add("zpopmax", -2, "write", 1, 1, 1,
                "sorted-set", "5.0.0", "O(M*log(N)) for M members popped", "Removes and returns the members with the highest scores.");
        add("zscan", -3, "readonly", 1, 1, 1,
                "sorted-set", "2.8.0", "O(N) for N members", "Iterates over the members and scores of a sorted set: one call returns them all, with cursor 0.");
        add("smove", 4, "write", 1, 2, 1,
                "set", "1.0.0", "O(1)", "Moves a member from one set to another of the same slot, atomically; replicated as the removal and the addition.");
        add("hrandfield", -2, "readonly", 1, 1, 1,
                "hash", "6.2.0", "O(N) for a hash of N fields", "Returns one or more fields of a hash at random, with their values on WITHVALUES.");
        add("zrandmember", -2, "readonly", 1, 1, 1,
                "sorted-set", "6.2.0", "O(N) for a sorted set of N members", "Returns one or more members of a sorted set at random, with their scores on WITHSCORES.");
        add("zunion", -3, "readonly", 0, 0, 0,
                "sorted-set", "6.2.0", "O(N) for N members in all", "Returns the union of sorted sets (sets count score 1) with WEIGHTS and AGGREGATE; the keys share one slot.");
        add("zinter", -3, "readonly", 0, 0, 0,
                "sorted-set", "6.2.0", "O(N*K) for the smallest input of N members and K inputs", "Returns the intersection of sorted sets (sets count score 1) with WEIGHTS and AGGREGATE; the keys share one slot.");
        add("zdiff", -3, "readonly", 0, 0, 0,
                "sorted-set", "6.2.0", "O(N) for N members in all", "Returns the members of the first sorted set the others lack; the keys share one slot.");
        add("zunionstore", -4, "write", 1, 1, 1,
                "sorted-set", "2.0.0", "O(N) for N members in all", "Stores the union of sorted sets at the destination, replicated member by member; the keys share one slot.");
        add("zinterstore", -4, "write", 1, 1, 1,
                "sorted-set", "2.0.0", "O(N*K) for the smallest input of N members and K inputs", "Stores the intersection of sorted sets at the destination; the keys share one slot.");
        add("zdiffstore", -4, "write", 1, 1, 1,
                "sorted-set", "6.2.0", "O(N) for N members in all", "Stores the members of the first sorted set the others lack at the destination; the keys share one slot.");
        add("zintercard", -3, "readonly", 0, 0, 0,
                "sorted-set", "7.0.0", "O(N*K) for the smallest input of N members and K inputs", "Counts the members every given sorted set holds (LIMIT caps it); the keys share one slot.");
        add("lmpop", -4, "write", 0, 0, 0,
                "list", "7.0.0", "O(N+M) for N keys and M elements popped", "Pops elements from the first non-empty list of several (LEFT or RIGHT, COUNT); the keys share one slot.");
        add("zmpop", -4, "write", 0, 0, 0,
                "sorted-set", "7.0.0", "O(K+M*log(N)) for K keys and M members popped", "Pops the lowest or highest members of the first non-empty sorted set of several; the keys share one slot.");
        add("bzpopmin", -3, "write", 1, -2, 1,
                "sorted-set", "5.0.0", "O(log(N)) with N members", "ZPOPMIN of the first non-empty sorted set of several, blocking until one has a member or the timeout passes.");
        add("bzpopmax", -3, "write", 1, -2, 1,
                "sorted-set", "5.0.0", "O(log(N)) with N members", "ZPOPMAX of the first non-empty sorted set of several, blocking until one has a member or the timeout passes.");
        add("blmpop", -5, "write", 0, 0, 0,
                "list", "7.0.0", "O(N+M) for N keys and M elements popped", "LMPOP, blocking until a list has an element or the timeout passes.");
        add("bzmpop", -5, "write", 0, 0, 0,
                "sorted-set", "7.0.0", "O(K+M*log(N)) for K keys and M members popped", "ZMPOP, blocking until a sorted set has a member or the timeout passes.");
        add("scan", -2, "readonly", 0, 0, 0,
                "generic", "2.8.0", "O(1) per call, O(N) for a full iteration over N keys", "Iterates over the keys of the slots this node serves.");
        add("keys", 2, "readonly", 0, 0, 0,
                "generic", "1.0.0", "O(N) for N keys on this node", "Returns the keys of this node that match a pattern.");
        add("rename", 3, "write", 1, 2, 1,
                "generic", "1.0.0", "O(N) for N elements", "Moves a key's value (any type) and expiry to another key of the same slot.");
        add("renamenx", 3, "write", 1, 2, 1,
                "generic", "1.0.0", "O(N) for N elements", "Renames a key only if the new name does not exist.");
        add("dump", 2, "readonly", 1, 1, 1,
                "generic", "2.6.0", "O(N) for N elements", "Returns a key's value (any type) in Zaris's own serialized form, which only RESTORE reads.");
        add("restore", -4, "write", 1, 1, 1,
                "generic", "2.6.0", "O(N) for N elements", "Creates a key from a DUMP payload (REPLACE, ABSTTL; IDLETIME and FREQ accepted and ignored).");
    }

    private CommandTable() {
    }

    private static void add(String name, int arity, String flag, int first, int last, int step,
                            String group, String since, String complexity, String summary) {
        COMMANDS.put(name, new Spec(name, arity, List.of(flag), first, last, step, new Docs(group, since, complexity, summary)));
    }

    /**
     * The command named by {@code name} (ASCII letters in any case, as Redis compares them), or {@code null}: found
     * without building a string, since every command a client sends is looked up.
     */
    static Spec lookup(byte[] name) {
        return ByName.INDEX.find(name);
    }

    /** Built on first lookup, after the static block above has added every command. */
    private static final class ByName {
        static final NameIndex INDEX = new NameIndex(COMMANDS.values());
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

    /**
     * {@code COMMAND DOCS} entry: the reply's map value for one command, with the fields Redis uses for them
     * ({@code summary}, {@code since}, {@code group}, {@code complexity}), all bulk strings as redis-cli expects.
     */
    static RespReply docs(Spec spec) {
        return RespReply.map(List.of(
                RespReply.bulk("summary"), RespReply.bulk(spec.docs().summary()),
                RespReply.bulk("since"), RespReply.bulk(spec.docs().since()),
                RespReply.bulk("group"), RespReply.bulk(spec.docs().group()),
                RespReply.bulk("complexity"), RespReply.bulk(spec.docs().complexity())));
    }
}
