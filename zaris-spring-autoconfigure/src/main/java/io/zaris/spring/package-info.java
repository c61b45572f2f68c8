/**
 * The Spring Boot auto-configuration of Zaris: {@code ZarisProperties} (prefix {@code zaris}) and the {@code
 * ZARIS_*} environment variables, the embedded cluster's lifecycle, the client bean.
 *
 * <p>Dependencies: imports the engine, Spring Boot, and its sub-packages for the beans it declares.
 */
package io.zaris.spring;
