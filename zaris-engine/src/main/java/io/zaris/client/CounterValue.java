package io.zaris.client;

/**
 * What an increment left behind: the counter's new {@code value} and the {@code version} of the change that set it.
 * The version is what {@code putIfVersion} and {@code deleteIfVersion} compare against, and what a lost ASYNC write
 * is named by ({@link LostWrite#revision()}), so an application can tell whether this very increment was lost.
 */
public record CounterValue(long value, long version) {
}
