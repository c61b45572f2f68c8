/** What a GraalVM native image of an application using the starter needs to know ahead of time. */
package io.zaris.spring.aot;
