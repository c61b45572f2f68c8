/**
 * The Redis protocol listener: RESP parsing and replies, the command table and commands, cluster topology
 * answers for Redis Cluster clients.
 *
 * <p>May import: time, placement, model, protocol, security, and store for its change sink (CLIENT TRACKING hears
 * every change of the node's segments there).
 */
package io.zaris.resp;
