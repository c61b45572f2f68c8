package io.zaris.apps;

import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.params.ZAddParams;
import redis.clients.jedis.resps.Tuple;

/**
 * A game's leaderboard as a Redis application writes it with Jedis: one sorted set of players by points. It knows
 * nothing of Zaris (only Jedis types), so running it against a Zaris cluster is running it unmodified.
 *
 * <p>Thread-safe as {@link JedisCluster} is: each call borrows a pooled connection.
 */
final class Leaderboard {

    /** A player with their points, as the board shows them. */
    record Standing(String player, double points) {
    }

    private final JedisCluster redis;
    private final String key;

    Leaderboard(JedisCluster redis, String key) {
        this.redis = redis;
        this.key = key;
    }

    /** Puts the player on the board with no points; returns whether they were new (ZADD NX). */
    boolean join(String player) {
        return redis.zadd(key, 0, player, ZAddParams.zAddParams().nx()) == 1;
    }

    /** Adds points to the player (ZINCRBY); returns their total. */
    double score(String player, double points) {
        return redis.zincrby(key, points, player);
    }

    /** The best {@code count} players, best first (ZREVRANGE ... WITHSCORES). */
    List<Standing> top(int count) {
        List<Standing> standings = new ArrayList<>();
        for (Tuple tuple : redis.zrevrangeWithScores(key, 0, count - 1)) {
            standings.add(new Standing(tuple.getElement(), tuple.getScore()));
        }
        return standings;
    }

    /** How many players have fewer points than this one (ZRANK); {@code null} for one not on the board. */
    Long playersBehind(String player) {
        return redis.zrank(key, player);
    }

    /** The player's place, 1 for the best (ZREVRANK); {@code null} for one not on the board. */
    Long place(String player) {
        Long rank = redis.zrevrank(key, player);
        return rank == null ? null : rank + 1;
    }
}
