package io.zaris.client;

/**
 * An element a blocking pop over several keys took, with the key whose list gave it (BLPOP's and BRPOP's answer).
 *
 * @param key     the first of the waited-on keys that held a list when the element was popped
 * @param element the element, removed from that list
 */
public record PoppedElement(String key, byte[] element) {
}
