package io.zaris.client;

/** Where {@link ZarisClient#listInsert} puts its element: just before or just after the pivot (LINSERT's BEFORE, AFTER). */
public enum InsertPosition {
    BEFORE,
    AFTER
}
