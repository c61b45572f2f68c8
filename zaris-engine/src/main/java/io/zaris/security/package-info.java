/**
 * Authentication and transport security: credentials and users, login sessions and throttling, TLS options, the
 * cluster secret, outbound limits and the slow-reader guard.
 *
 * <p>Dependencies: imports protocol only.
 */
package io.zaris.security;
