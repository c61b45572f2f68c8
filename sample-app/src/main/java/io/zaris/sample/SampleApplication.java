package io.zaris.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cache.annotation.EnableCaching;

/**
 * A web application that keeps its data in Zaris.
 *
 * <p>The starter on the classpath is all the set-up there is: with no {@code zaris.client.seeds}
 * configured, it starts a three-node cluster inside this JVM and hands the controllers a
 * {@link io.zaris.client.ZarisClient} connected to it (see {@code application.yml}), a
 * {@link io.zaris.spring.template.ZarisTemplate} for typed access, and — because of {@link EnableCaching} —
 * a Zaris-backed {@code CacheManager} behind {@code @Cacheable}.
 */
@SpringBootApplication
@EnableCaching
public class SampleApplication {

    public static void main(String[] args) {
        SpringApplication.run(SampleApplication.class, args);
    }
}
