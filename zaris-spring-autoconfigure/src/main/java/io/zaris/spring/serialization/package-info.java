/**
 * How cached values become bytes: JDK and JSON serializers, with a class allow-list for deserialization.
 *
 * <p>Dependencies: Imports nothing else of Zaris.
 */
package io.zaris.spring.serialization;
