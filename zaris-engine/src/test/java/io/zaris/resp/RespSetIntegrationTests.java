package io.zaris.resp;

import static io.zaris.resp.RedisCli.WRONGTYPE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.zaris.model.NodeAddress;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The set commands on the RESP port: hand-written expectations (Redis 7's replies and errors) on a one-node cluster
 * serving every slot, and the same command sequence sent to a real {@code redis-server} (started by the test when it
 * is installed) with every reply compared. Keys share the hash tag {@code {t}} so multi-key commands stay in one slot.
 */
@Tag("in-process-cluster")
class RespSetIntegrationTests {

    /** Commands whose reply order Redis leaves unspecified: their arrays are compared sorted. */
    private static final Set<String> UNORDERED = Set.of("SMEMBERS", "SINTER", "SUNION", "SDIFF", "SSCAN", "SPOP",
            "SRANDMEMBER");

    /**
     * Every set command with its edge cases: members added twice, missing keys, other types, bad counts and cursors,
     * wrong argument counts. SPOP and SRANDMEMBER appear only where their answer is not left to chance (counts that
     * take the whole set, a set of one member, a missing key).
     */
    private static final String SEQUENCE = """
            SADD {t}s a b c a
            SADD {t}s c d
            SCARD {t}s
            SMEMBERS {t}s
            SISMEMBER {t}s a
            SISMEMBER {t}s nope
            SMISMEMBER {t}s a nope d
            SREM {t}s a nope
            SREM {t}s
            SADD {t}s
            SMEMBERS {t}none
            SCARD {t}none
            SISMEMBER {t}none a
            SMISMEMBER {t}none a b
            SADD {t}t c d e f
            SADD {t}u x
            SINTER {t}s {t}t
            SINTER {t}s {t}t {t}none
            SUNION {t}s {t}t {t}u {t}none
            SDIFF {t}t {t}s
            SDIFF {t}none {t}s
            SDIFF {t}s
            SPOP {t}u
            SPOP {t}u
            SPOP {t}none
            SPOP {t}none 3
            SPOP {t}s 0
            SPOP {t}s -1
            SPOP {t}s x
            SPOP {t}s 1 2
            SADD {t}one only
            SRANDMEMBER {t}one
            SRANDMEMBER {t}one -3
            SRANDMEMBER {t}one 0
            SRANDMEMBER {t}s 10
            SRANDMEMBER {t}none
            SRANDMEMBER {t}none -3
            SRANDMEMBER {t}s x
            SRANDMEMBER {t}s 1 2
            SRANDMEMBER {t}s -9223372036854775808
            SSCAN {t}s 0
            SSCAN {t}t 0 MATCH [ce]* COUNT 10
            SSCAN {t}s x
            SSCAN {t}s 0 COUNT 0
            SSCAN {t}none 0
            SET {t}str v
            HSET {t}h f v
            SADD {t}str m
            SADD {t}h m
            SMEMBERS {t}str
            SISMEMBER {t}h f
            SCARD {t}str
            SPOP {t}str 0
            SRANDMEMBER {t}h 0
            SSCAN {t}str 0
            SINTER {t}none {t}str
            SDIFF {t}none {t}h
            SUNION {t}s {t}str
            HGET {t}s a
            GET {t}s
            INCR {t}s
            TYPE {t}s
            TYPE {t}str
            TYPE {t}h
            EXISTS {t}s {t}t {t}none
            TTL {t}s
            EXPIRE {t}s 100
            EXPIRE {t}s 50 GT
            TTL {t}s
            SADD {t}s z
            TTL {t}s
            PERSIST {t}s
            TTL {t}s
            SPOP {t}t 10
            TYPE {t}t
            DEL {t}s {t}one
            SMEMBERS {t}s
            SADD {t}r a
            MGET {t}r {t}str
            SET {t}r v
            TYPE {t}r
            GET {t}r
            SADD {t}n 3 1 2 10 -5 1
            SMEMBERS {t}n
            SADD {t}n x
            SMISMEMBER {t}n 1 x 4
            SREM {t}n 3 x
            SCARD {t}n
            SADD {t}large 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126 127 128 129 130 131 132 133 134 135 136 137 138 139 140 141 142 143 144 145 146 147 148 149 150 151 152 153 154 155 156 157 158 159 160 161 162 163 164 165 166 167 168 169 170 171 172 173 174 175 176 177 178 179 180 181 182 183 184 185 186 187 188 189 190 191 192 193 194 195 196 197 198 199 200
            SCARD {t}large
            SADD {t}large 5 201
            SINTER {t}large {t}n
            SDIFF {t}n {t}large
            SUNION {t}n {t}large
            SRANDMEMBER {t}large 500
            SPOP {t}large 500
            EXISTS {t}large
            SADD {t}x a b c
            SADD {t}y b c d
            SINTERSTORE {t}dst {t}x {t}y
            SMEMBERS {t}dst
            SUNIONSTORE {t}dst {t}x {t}y
            SMEMBERS {t}dst
            SDIFFSTORE {t}dst {t}x {t}y
            SMEMBERS {t}dst
            SET {t}dstr v
            SINTERSTORE {t}dstr {t}x {t}y
            TYPE {t}dstr
            SDIFFSTORE {t}dstr {t}x {t}x
            EXISTS {t}dstr
            SUNIONSTORE {t}dst {t}none
            EXISTS {t}dst
            SINTERSTORE {t}dst {t}x {t}str
            SUNIONSTORE {t}dst
            SINTERSTORE {t}x {t}x {t}y
            SMEMBERS {t}x
            """;

    @RegisterExtension
    static final SingleRespNode NODE = new SingleRespNode();

    @Test
    void addReadAndRemoveMembers() throws IOException {
        NODE.assertReplies("""
                SADD {t}a x y x
                SADD {t}a z
                SCARD {t}a
                SISMEMBER {t}a y
                SISMEMBER {t}a w
                SMISMEMBER {t}a w x
                SMEMBERS {t}a
                SREM {t}a x w
                SREM {t}a y z
                TYPE {t}a
                SMEMBERS {t}a
                SCARD {t}a
                SADD {t}a
                """, """
                :2
                :1
                :3
                :1
                :0
                *2
                :0
                :1
                *3
                $1
                x
                $1
                y
                $1
                z
                :1
                :2
                +none
                *0
                :0
                -ERR wrong number of arguments for 'sadd' command
                """);
    }

    @Test
    void spopAndSrandmemberAsRedisAnswersThem() throws IOException {
        NODE.assertReplies("""
                SADD {t}p only
                SRANDMEMBER {t}p
                SRANDMEMBER {t}p -2
                SPOP {t}p
                SPOP {t}p
                SPOP {t}p 2
                SPOP {t}p -1
                SPOP {t}p x
                SPOP {t}p 1 2
                SRANDMEMBER {t}p x
                """, """
                :1
                $4
                only
                *2
                $4
                only
                $4
                only
                $4
                only
                $-1
                *0
                -ERR value is out of range, must be positive
                -ERR value is out of range, must be positive
                -ERR syntax error
                -ERR value is not an integer or out of range
                """);
    }

    @Test
    void keysOfDifferentSlotsAreRefusedAndTypesMeetAsRedisHasThem() throws IOException {
        NODE.assertReplies("""
                SADD {t}k m
                SET {t}str v
                SINTER {t}k other
                SUNION {t}k {other}
                SDIFF {t}k other
                SINTERSTORE {t}dest {t}k other
                SADD {t}str m
                GET {t}k
                SCAN 0 COUNT 100000 MATCH {t}k TYPE set
                SCAN 0 COUNT 100000 MATCH {t}k TYPE string
                """, """
                :1
                +OK
                -CROSSSLOT Keys in request don't hash to the same slot
                -CROSSSLOT Keys in request don't hash to the same slot
                -CROSSSLOT Keys in request don't hash to the same slot
                -CROSSSLOT Keys in request don't hash to the same slot
                """ + WRONGTYPE + WRONGTYPE + """
                *2
                $1
                0
                *1
                $4
                {t}k
                *2
                $1
                0
                *0
                """);
    }

    @Test
    void aSetExpiresWhole() throws IOException {
        RedisCli.assertExpiresWhole(NODE.address(), "{t}e", "SADD {t}e a b", "SMEMBERS {t}e");
    }

    /**
     * Over RESP3 Redis answers a set's members as a set ({@code ~}), SRANDMEMBER's (which may repeat) as an array: the
     * same bytes from a real Redis and from Zaris, on sets of one member so that no order is left to chance.
     */
    @Test
    void resp3AnswersSetMembersAsASetAsRedisDoes() throws Exception {
        assumeThat(RedisServer.installed()).as(RedisServer.MISSING).isTrue();
        String commands = "HELLO 3\r\nSADD {t}r3a x\r\nSADD {t}r3b x\r\nSMEMBERS {t}r3a\r\n"
                + "SINTER {t}r3a {t}r3b\r\nSUNION {t}r3a {t}r3b\r\nSDIFF {t}r3a {t}r3none\r\nSRANDMEMBER {t}r3a 1\r\n"
                + "SPOP {t}r3a 1\r\nSMEMBERS {t}r3a\r\nSPOP {t}r3none 2\r\n";
        String expected = ":1\r\n:1\r\n~1\r\n$1\r\nx\r\n~1\r\n$1\r\nx\r\n~1\r\n$1\r\nx\r\n~1\r\n$1\r\nx\r\n"
                + "*1\r\n$1\r\nx\r\n~1\r\n$1\r\nx\r\n~0\r\n~0\r\n";
        String redis;
        try (RedisServer server = RedisServer.start()) {
            redis = afterHello(server.address(), commands, expected.length());
        }
        assertThat(redis).isEqualTo(expected);
        assertThat(afterHello(NODE.address(), commands, expected.length())).isEqualTo(redis);
    }

    /** What {@code address} answers to {@code commands} after its HELLO reply: {@code length} bytes. */
    private static String afterHello(NodeAddress address, String commands, int length) throws IOException {
        try (Socket socket = new Socket(address.host(), address.port())) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(commands.getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            skipMap(in);
            return new String(in.readNBytes(length), StandardCharsets.US_ASCII);
        }
    }

    /** Skips HELLO's reply, a map of simple, bulk, integer and array values (its modules array is empty). */
    private static void skipMap(InputStream in) throws IOException {
        String header = line(in);
        assertThat(header).startsWith("%");
        for (int i = 0, items = 2 * Integer.parseInt(header.substring(1)); i < items; i++) {
            String item = line(in);
            if (item.startsWith("$")) {
                in.readNBytes(Integer.parseInt(item.substring(1)) + 2);
            } else if (item.startsWith("*")) {
                assertThat(item).as("HELLO's modules").isEqualTo("*0");
            }
        }
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b; (b = in.read()) != '\n'; ) {
            if (b < 0) {
                throw new EOFException("connection closed after '" + line + "'");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    /** The same sequence on a real Redis and on Zaris: every reply alike (unordered arrays compared sorted). */
    @Test
    void everyReplyMatchesARealRedis() throws Exception {
        assumeThat(RedisServer.installed()).as(RedisServer.MISSING).isTrue();
        RedisServer.assertSameReplies(NODE.address(), SEQUENCE.lines().toList(), UNORDERED);
    }

    /** redis-cli, which speaks RESP arrays (not inline commands) and prints replies its own way. */
    @Test
    void redisCliSeesSetsAsRedisShowsThem() throws Exception {
        assumeThat(RedisCli.installed()).as(RedisCli.MISSING).isTrue();
        NodeAddress address = NODE.address();
        assertThat(RedisCli.at(address, "SADD", "{t}cli", "red", "green")).isEqualTo("2");
        assertThat(RedisCli.at(address, "SMEMBERS", "{t}cli")).isEqualTo("red\ngreen");
        assertThat(RedisCli.at(address, "SISMEMBER", "{t}cli", "green")).isEqualTo("1");
        assertThat(RedisCli.at(address, "TYPE", "{t}cli")).isEqualTo("set");
        assertThat(RedisCli.at(address, "HGETALL", "{t}cli"))
                .isEqualTo("WRONGTYPE Operation against a key holding the wrong kind of value");
        assertThat(RedisCli.at(address, "DEL", "{t}cli")).isEqualTo("1");
        assertThat(RedisCli.at(address, "SMEMBERS", "{t}cli")).isEmpty();
    }
}
