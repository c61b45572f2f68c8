package io.zaris.client;

/** Which end of a list an operation works at: its head (index 0, Redis's LEFT) or its tail (Redis's RIGHT). */
public enum ListEnd {
    HEAD,
    TAIL
}
