package io.zaris.resp;

import io.zaris.model.Glob;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * The options after a SCAN-family command's cursor ({@code MATCH pattern}, {@code COUNT n}, and where the command
 * takes them {@code TYPE type} and {@code NOVALUES}), read the way Redis reads them: in any order, a later one
 * overriding an earlier one, a COUNT below 1 or an unknown option a syntax error. Pure: the caller turns
 * {@link Invalid} into its reply.
 *
 * @param pattern the MATCH glob, {@code null} for every element
 * @param count   the COUNT hint (10 when not given)
 * @param type    SCAN's TYPE in lower case, {@code null} for every type
 * @param values  whether HSCAN answers values beside fields (false after NOVALUES)
 */
record ScanOptions(byte[] pattern, long count, String type, boolean values) {

    /** Redis's COUNT when none is given. */
    static final long DEFAULT_COUNT = 10;

    /** Which options beyond MATCH and COUNT a command takes. */
    enum Extra { NONE, TYPE, NOVALUES }

    /** Options Redis would refuse, with the error it answers. */
    static final class Invalid extends Exception {
        private final boolean notInteger;

        private Invalid(boolean notInteger) {
            super(notInteger ? "COUNT is not an integer" : "syntax error", null, false, false);
            this.notInteger = notInteger;
        }

        /** Whether Redis answers "value is not an integer or out of range" (else "syntax error"). */
        boolean notInteger() {
            return notInteger;
        }
    }

    /** Whether an element passes MATCH. */
    boolean matches(byte[] element) {
        return pattern == null || Glob.matches(pattern, element);
    }

    /** Reads {@code args} from index {@code from} (the first option after the cursor) to the end. */
    static ScanOptions parse(List<byte[]> args, int from, Extra extra) throws Invalid {
        byte[] pattern = null;
        long count = DEFAULT_COUNT;
        String type = null;
        boolean values = true;
        for (int i = from; i < args.size(); i++) {
            String option = new String(args.get(i), StandardCharsets.UTF_8).toUpperCase(Locale.ROOT);
            if (extra == Extra.NOVALUES && option.equals("NOVALUES")) {
                values = false;
            } else if (i + 1 >= args.size()) {
                throw new Invalid(false);
            } else if (option.equals("MATCH")) {
                pattern = args.get(++i);
            } else if (option.equals("COUNT")) {
                Long value = RespCommands.parseLong(args.get(++i));
                if (value == null) {
                    throw new Invalid(true);
                }
                if (value < 1) {
                    throw new Invalid(false);
                }
                count = value;
            } else if (extra == Extra.TYPE && option.equals("TYPE")) {
                type = new String(args.get(++i), StandardCharsets.UTF_8).toLowerCase(Locale.ROOT);
            } else {
                throw new Invalid(false);
            }
        }
        return new ScanOptions(pattern, count, type, values);
    }
}
