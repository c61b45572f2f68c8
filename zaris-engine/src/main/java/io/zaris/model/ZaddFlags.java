package io.zaris.model;

/**
 * ZADD's conditions as Redis reads them, and how {@link HashOp#ZADD} carries them: one letter each, N (NX), X (XX),
 * G (GT), L (LT), C (CH), I (INCR). ZINCRBY is a ZADD with INCR. Pure.
 *
 * @param nx   only add new members
 * @param xx   only update existing members
 * @param gt   update only to a higher score
 * @param lt   update only to a lower score
 * @param ch   count updated members beside added ones
 * @param incr add the score to the member's (one pair only) and answer the result
 */
public record ZaddFlags(boolean nx, boolean xx, boolean gt, boolean lt, boolean ch, boolean incr) {

    /** ZINCRBY's flags. */
    public static final ZaddFlags INCREMENT = new ZaddFlags(false, false, false, false, false, true);

    /** A plain ZADD's flags: none. */
    public static final ZaddFlags NONE = new ZaddFlags(false, false, false, false, false, false);

    /** The flags a letter string names; {@code null} when it holds another letter. */
    public static ZaddFlags fromLetters(String letters) {
        if (letters.isEmpty()) {
            return NONE; // every plain ZADD: no stream, no new record
        }
        for (int i = 0; i < letters.length(); i++) {
            if ("NXGLCI".indexOf(letters.charAt(i)) < 0) {
                return null;
            }
        }
        return new ZaddFlags(letters.indexOf('N') >= 0, letters.indexOf('X') >= 0, letters.indexOf('G') >= 0,
                letters.indexOf('L') >= 0, letters.indexOf('C') >= 0, letters.indexOf('I') >= 0);
    }

    /** The flags as {@link HashOp#ZADD}'s first argument. */
    public String letters() {
        return (nx ? "N" : "") + (xx ? "X" : "") + (gt ? "G" : "") + (lt ? "L" : "") + (ch ? "C" : "") + (incr ? "I" : "");
    }

    /** Redis's error for flags that do not go together with {@code pairs} score-member pairs, else {@code null}. */
    public String conflict(int pairs) {
        if (nx && xx) {
            return "XX and NX options at the same time are not compatible";
        }
        if ((gt && nx) || (lt && nx) || (gt && lt)) {
            return "GT, LT, and/or NX options at the same time are not compatible";
        }
        if (incr && pairs > 1) {
            return "INCR option supports a single increment-element pair";
        }
        return null;
    }
}
