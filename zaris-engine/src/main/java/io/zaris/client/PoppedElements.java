package io.zaris.client;

import java.util.List;

/**
 * The elements a pop over several keys took, with the key whose list gave them (LMPOP's and BLMPOP's answer).
 *
 * @param key      the first of the keys that held a list when the pop was made
 * @param elements the elements removed from that list, nearest the popped end first; never empty
 */
public record PoppedElements(String key, List<byte[]> elements) {
}
