package io.zaris.resp;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits an inline command line into arguments the way Redis does for {@code redis-cli} and telnet users:
 * words separated by spaces and tabs; {@code "double quotes"} with {@code \n \r \t \b \a \\ \" \xHH}
 * escapes; {@code 'single quotes'} with only {@code \'} escaped. A closing quote must be followed by a
 * space or the end of the line. Pure.
 */
final class InlineSplitter {

    private InlineSplitter() {
    }

    /** The words, or {@code null} when quotes are unbalanced. */
    static List<byte[]> split(byte[] line) {
        List<byte[]> words = new ArrayList<>();
        int i = 0;
        int n = line.length;
        while (true) {
            while (i < n && isSpace(line[i])) {
                i++;
            }
            if (i >= n) {
                return words;
            }
            ByteArrayOutputStream word = new ByteArrayOutputStream();
            boolean inDouble = false;
            boolean inSingle = false;
            boolean done = false;
            while (!done) {
                if (inDouble) {
                    if (i >= n) {
                        return null;
                    }
                    byte c = line[i];
                    if (c == '\\' && i + 3 < n && line[i + 1] == 'x' && hex(line[i + 2]) >= 0 && hex(line[i + 3]) >= 0) {
                        word.write(hex(line[i + 2]) * 16 + hex(line[i + 3]));
                        i += 3;
                    } else if (c == '\\' && i + 1 < n) {
                        i++;
                        byte e = line[i];
                        word.write(switch (e) {
                            case 'n' -> '\n';
                            case 'r' -> '\r';
                            case 't' -> '\t';
                            case 'b' -> '\b';
                            case 'a' -> 7;
                            default -> e;
                        });
                    } else if (c == '"') {
                        if (i + 1 < n && !isSpace(line[i + 1])) {
                            return null;
                        }
                        done = true;
                    } else {
                        word.write(c);
                    }
                } else if (inSingle) {
                    if (i >= n) {
                        return null;
                    }
                    byte c = line[i];
                    if (c == '\\' && i + 1 < n && line[i + 1] == '\'') {
                        i++;
                        word.write('\'');
                    } else if (c == '\'') {
                        if (i + 1 < n && !isSpace(line[i + 1])) {
                            return null;
                        }
                        done = true;
                    } else {
                        word.write(c);
                    }
                } else {
                    if (i >= n || isSpace(line[i])) {
                        done = true;
                        continue;
                    }
                    byte c = line[i];
                    if (c == '"') {
                        inDouble = true;
                    } else if (c == '\'') {
                        inSingle = true;
                    } else {
                        word.write(c);
                    }
                }
                i++;
            }
            words.add(word.toByteArray());
        }
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }

    private static int hex(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
