package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class RespReaderTests {

    private static final RespLimits SMALL = new RespLimits(64, 8, 32, 256);

    @Test
    void readsPipelinedMultibulkCommands() throws Exception {
        RespReader reader = new RespReader(RespLimits.defaults());
        ByteBuf in = ascii("*2\r\n$3\r\nGET\r\n$3\r\nfoo\r\n*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$0\r\n\r\n");
        assertThat(words(reader.read(in))).containsExactly("GET", "foo");
        assertThat(words(reader.read(in))).containsExactly("SET", "k", "");
        assertThat(reader.read(in)).isNull();
    }

    /** A command named with the same bytes as the one before shares its name's array; any other name gets its own. */
    @Test
    void aRepeatedCommandNameIsOneArrayAndADifferentOneIsReadAsSent() throws Exception {
        RespReader reader = new RespReader(RespLimits.defaults());
        ByteBuf in = ascii("*2\r\n$3\r\nGET\r\n$1\r\na\r\n*2\r\n$3\r\nGET\r\n$1\r\nb\r\n"
                + "*2\r\n$3\r\nget\r\n$1\r\nc\r\n*2\r\n$3\r\nGEX\r\n$1\r\nd\r\n*3\r\n$4\r\nHGET\r\n$1\r\ne\r\n$1\r\nf\r\n");
        List<byte[]> first = reader.read(in);
        List<byte[]> second = reader.read(in);
        List<byte[]> lower = reader.read(in);
        List<byte[]> near = reader.read(in);
        List<byte[]> longer = reader.read(in);
        assertThat(second.get(0)).isSameAs(first.get(0));
        assertThat(words(second)).containsExactly("GET", "b");
        assertThat(words(lower)).as("another case is other bytes").containsExactly("get", "c");
        assertThat(words(near)).containsExactly("GEX", "d");
        assertThat(words(longer)).containsExactly("HGET", "e", "f");
        assertThat(words(first)).as("the shared array is never written again").containsExactly("GET", "a");
    }

    @Test
    void aCommandSplitIntoSingleBytesIsReadOnceComplete() throws Exception {
        RespReader reader = new RespReader(RespLimits.defaults());
        byte[] frame = "*3\r\n$3\r\nSET\r\n$5\r\nhello\r\n$5\r\nworld\r\n".getBytes(StandardCharsets.US_ASCII);
        ByteBuf in = Unpooled.buffer();
        List<byte[]> command = null;
        for (int i = 0; i < frame.length; i++) {
            assertThat(command).as("complete only after the last byte").isNull();
            in.writeByte(frame[i]);
            command = reader.read(in);
        }
        assertThat(words(command)).containsExactly("SET", "hello", "world");
        assertThat(in.isReadable()).isFalse();
    }

    @Test
    void inlineCommandsSplitOnSpacesAndUnderstandQuotes() throws Exception {
        RespReader reader = new RespReader(RespLimits.defaults());
        ByteBuf in = ascii("set \"a b\" 'c\\'d' \"\\x41\\n\"\r\nPING\n\r\n");
        assertThat(words(reader.read(in))).containsExactly("set", "a b", "c'd", "A\n");
        assertThat(words(reader.read(in))).containsExactly("PING");
        assertThat(reader.read(in)).isEmpty();
    }

    @Test
    void emptyArraysAreSkippedAsEmptyCommands() throws Exception {
        RespReader reader = new RespReader(RespLimits.defaults());
        ByteBuf in = ascii("*0\r\n*-1\r\n");
        assertThat(reader.read(in)).isEmpty();
        assertThat(reader.read(in)).isEmpty();
    }

    @Test
    void limitsAndBrokenFramingAreProtocolErrors() {
        assertProtocolError("*9\r\n", "invalid multibulk length");
        assertProtocolError("*x\r\n", "invalid multibulk length");
        assertProtocolError("*1\r\n$65\r\n", "invalid bulk length");
        assertProtocolError("*1\r\n$-5\r\n", "invalid bulk length");
        assertProtocolError("*1\r\n+OK\r\n", "expected '$', got '+'");
        assertProtocolError("*1\r\n$2\r\nabcd\r\n", "not terminated by CRLF");
        assertProtocolError("GET " + "x".repeat(40), "too big inline request");
        assertProtocolError("GET \"unbalanced\r\n", "unbalanced quotes");
        assertProtocolError("*5\r\n$64\r\n" + "a".repeat(64) + "\r\n$64\r\n" + "a".repeat(64) + "\r\n$64\r\n" + "a".repeat(64)
                + "\r\n$64\r\n" + "a".repeat(64) + "\r\n$64\r\n", "command larger than");
        assertProtocolError("*1\r\n$1\rx", "invalid bulk length");
    }

    @Test
    void lengthLinesOfDigitsOnlyReadAsNumbersAndEveryOtherShapeIsRefused() throws Exception {
        RespReader reader = new RespReader(RespLimits.defaults());
        ByteBuf in = ascii("*002\r\n$03\r\nGET\r\n$000\r\n\r\n");
        assertThat(words(reader.read(in))).containsExactly("GET", "");
        assertProtocolError("*1\r\n$\r\n", "invalid bulk length");
        assertProtocolError("*1\r\n$+3\r\nGET\r\n", "invalid bulk length");
        assertProtocolError("*1\r\n$3 \r\nGET\r\n", "invalid bulk length");
        assertProtocolError("*1\r\n$1234567890123456789\r\n", "invalid bulk length"); // 19 digits
        assertProtocolError("*1\r\n$999999999999999999\r\n", "invalid bulk length"); // 18 digits, over the limit
        assertProtocolError("*1\r\n$3\r\rGET\r\n", "invalid bulk length");
        assertProtocolError("*1 \r\n", "invalid multibulk length");
    }

    @Test
    void aLengthLineWaitsForItsLineFeed() throws Exception {
        RespReader reader = new RespReader(RespLimits.defaults());
        ByteBuf in = Unpooled.buffer().writeBytes("*1\r\n$4\r".getBytes(StandardCharsets.US_ASCII));
        assertThat(reader.read(in)).isNull();
        in.writeBytes("\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(words(reader.read(in))).containsExactly("PING");
    }

    /** Thousands of random and mutated frames: the reader returns commands, waits, or throws its one exception. */
    @Test
    void randomAndMutatedFramesNeverThrowAnythingButAProtocolError() {
        Random random = new Random(20261130L);
        for (int round = 0; round < 20_000; round++) {
            byte[] frame = RespFuzz.frame(random);
            RespReader reader = new RespReader(SMALL);
            ByteBuf in = Unpooled.wrappedBuffer(frame);
            try {
                for (int i = 0; i < 100; i++) {
                    int before = in.readerIndex();
                    List<byte[]> command = reader.read(in);
                    if (command == null || !in.isReadable() || in.readerIndex() == before) {
                        break;
                    }
                }
            } catch (RespProtocolException expected) {
                assertThat(expected.getMessage()).startsWith("Protocol error: ");
            }
        }
    }

    private static void assertProtocolError(String input, String message) {
        RespReader reader = new RespReader(SMALL);
        assertThatThrownBy(() -> {
            ByteBuf in = ascii(input);
            while (reader.read(in) != null) {
                // keep reading
            }
        }).isInstanceOf(RespProtocolException.class).hasMessageContaining(message);
    }

    private static ByteBuf ascii(String text) {
        return Unpooled.wrappedBuffer(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static List<String> words(List<byte[]> command) {
        List<String> words = new ArrayList<>();
        for (byte[] word : command) {
            words.add(new String(word, StandardCharsets.ISO_8859_1));
        }
        return words;
    }
}
