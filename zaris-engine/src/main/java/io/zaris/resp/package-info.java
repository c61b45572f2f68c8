/**
 * The Redis protocol listener: RESP parsing and replies, the command table and commands, cluster topology
 * answers for Redis Cluster clients.
 *
 * <p>May import: placement, model, protocol, store and security.
 */
package io.zaris.resp;
