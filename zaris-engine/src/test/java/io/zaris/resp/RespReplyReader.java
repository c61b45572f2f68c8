package io.zaris.resp;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads raw RESP2 replies (and RESP3's doubles, nulls and maps) into one text line each, for comparing two servers'
 * replies: a bulk string is its text in quotes, an array its elements in brackets, a map its pairs in braces. {@code unordered} sorts an array's elements (and the elements of an
 * array nested in it), for the replies whose order Redis leaves unspecified.
 */
final class RespReplyReader {

    private final InputStream in;

    RespReplyReader(byte[] replies) {
        this.in = new ByteArrayInputStream(replies);
    }

    /** The next reply; {@code null} when the input is used up. */
    String next(boolean unordered) throws IOException {
        String line = line();
        if (line == null) {
            return null;
        }
        char type = line.charAt(0);
        String rest = line.substring(1);
        switch (type) {
            case '+', '-', ':', ',':
                return line;
            case '_':
                return "_"; // RESP3's null, told apart from RESP2's nil
            case '%': {
                int count = Integer.parseInt(rest);
                List<String> items = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    items.add(next(unordered) + "=" + next(unordered));
                }
                return "{" + String.join(", ", items) + "}";
            }
            case '$': {
                int length = Integer.parseInt(rest);
                if (length < 0) {
                    return "nil";
                }
                String text = new String(in.readNBytes(length), StandardCharsets.ISO_8859_1);
                line();
                return "\"" + text + "\"";
            }
            case '*': {
                int count = Integer.parseInt(rest);
                if (count < 0) {
                    return "nil-array";
                }
                List<String> items = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    items.add(next(unordered));
                }
                if (unordered) {
                    items.sort(null);
                }
                return items.toString();
            }
            default:
                throw new IOException("not a RESP2 or RESP3 reply: " + line);
        }
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
