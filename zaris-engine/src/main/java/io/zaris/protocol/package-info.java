/**
 * The wire: frames, request and response codecs, op codes, the view codec and ownership events: everything that
 * knows a byte layout between clients and nodes and between nodes.
 *
 * <p>May import: placement and model (the values it encodes).
 */
package io.zaris.protocol;
