/**
 * Client operations of the template and the caches as Micrometer Observations (a timer and, with a tracer, a
 * span each). Only {@link io.zaris.spring.observation.ZarisOperationObserver} is free of Micrometer; the rest is
 * loaded only when {@code micrometer-observation} is on the classpath.
 */
package io.zaris.spring.observation;
