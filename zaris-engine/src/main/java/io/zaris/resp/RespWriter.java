package io.zaris.resp;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Writes {@link RespReply} values in RESP2 or RESP3. Stateless. */
final class RespWriter {

    private static final byte[] CRLF = {'\r', '\n'};

    private RespWriter() {
    }

    static void write(RespReply reply, int protocol, ByteBuf out) {
        if (reply instanceof RespReply.Simple simple) {
            line(out, '+', simple.text());
        } else if (reply instanceof RespReply.Error error) {
            line(out, '-', error.text());
        } else if (reply instanceof RespReply.Int integer) {
            line(out, ':', Long.toString(integer.value()));
        } else if (reply instanceof RespReply.Bulk bulk) {
            line(out, '$', Integer.toString(bulk.bytes().length));
            out.writeBytes(bulk.bytes());
            out.writeBytes(CRLF);
        } else if (reply instanceof RespReply.BufferBulk bulk) {
            ByteBuf bytes = bulk.bytes();
            line(out, '$', Integer.toString(bytes.readableBytes()));
            out.writeBytes(bytes, bytes.readerIndex(), bytes.readableBytes());
            out.writeBytes(CRLF);
        } else if (reply instanceof RespReply.Null) {
            out.writeBytes(protocol >= 3 ? "_\r\n".getBytes(StandardCharsets.US_ASCII)
                    : "$-1\r\n".getBytes(StandardCharsets.US_ASCII));
        } else if (reply instanceof RespReply.Array array) {
            line(out, '*', Integer.toString(array.items().size()));
            for (RespReply item : array.items()) {
                write(item, protocol, out);
            }
        } else if (reply instanceof RespReply.MapReply map) {
            int size = map.keysAndValues().size();
            if (protocol >= 3) {
                line(out, '%', Integer.toString(size / 2));
            } else {
                line(out, '*', Integer.toString(size));
            }
            for (RespReply item : map.keysAndValues()) {
                write(item, protocol, out);
            }
        } else if (reply instanceof RespReply.Score score) {
            if (protocol >= 3) {
                line(out, ',', new String(score.text(), StandardCharsets.US_ASCII));
            } else {
                line(out, '$', Integer.toString(score.text().length));
                out.writeBytes(score.text());
                out.writeBytes(CRLF);
            }
        } else if (reply instanceof RespReply.Pairs pairs) {
            List<RespReply> flat = pairs.flat();
            if (protocol >= 3) {
                line(out, '*', Integer.toString(flat.size() / 2));
                for (int i = 0; i < flat.size(); i += 2) {
                    line(out, '*', "2");
                    write(flat.get(i), protocol, out);
                    write(flat.get(i + 1), protocol, out);
                }
            } else {
                line(out, '*', Integer.toString(flat.size()));
                for (RespReply item : flat) {
                    write(item, protocol, out);
                }
            }
        } else if (reply instanceof RespReply.ThenClose thenClose) {
            write(thenClose.reply(), protocol, out);
        }
    }

    private static void line(ByteBuf out, char type, String text) {
        out.writeByte(type);
        out.writeCharSequence(text, StandardCharsets.UTF_8);
        out.writeBytes(CRLF);
    }
}
