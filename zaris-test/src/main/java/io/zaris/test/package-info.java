/**
 * Test support for applications that use Zaris: {@link io.zaris.test.ZarisCluster} starts a real cluster for a
 * test class and, on a Spring test, points the application's client at it.
 */
package io.zaris.test;
