/**
 * The Redis protocol listener: RESP parsing and replies, the command table and commands, cluster topology
 * answers for Redis Cluster clients.
 *
 * <p>Dependencies: imports placement, protocol, store, cluster and security.
 */
package io.zaris.resp;
