/**
 * Authentication and transport security: credentials and users, login sessions and throttling, TLS options, the
 * cluster secret, outbound limits and the slow-reader guard.
 *
 * <p>May import: protocol only (op codes, for access rules).
 */
package io.zaris.security;
