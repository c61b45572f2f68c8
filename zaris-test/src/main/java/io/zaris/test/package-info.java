/**
 * Test support for applications that use Zaris: {@link io.zaris.test.ZarisCluster} starts a real cluster for a
 * test class, in the test JVM or as server processes ({@link io.zaris.test.ZarisServerProcesses}), and, on a
 * Spring test, points the application's client at it.
 */
package io.zaris.test;
