package io.zaris.spring;

import io.zaris.spring.ZarisProperties.Serialization.Format;
import io.zaris.spring.serialization.ClassAllowList;
import io.zaris.spring.serialization.JdkZarisSerializer;
import io.zaris.spring.serialization.JsonZarisSerializer;
import io.zaris.spring.serialization.ZarisSerializer;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.util.ClassUtils;
import tools.jackson.databind.json.JsonMapper;

/**
 * Builds the serializer of a {@link Format} with the application's allow-list
 * ({@code zaris.serialization.allowed-classes} and its {@code @SpringBootApplication} packages), for per-cache
 * formats. The JSON format needs Jackson 3; its classes are touched only when it is asked for.
 */
public final class ZarisSerializerFormats {

    private static final String JSON_MAPPER = "tools.jackson.databind.json.JsonMapper";

    private ZarisSerializerFormats() {
    }

    /**
     * @throws IllegalStateException when JSON is asked for and Jackson 3 is not on the classpath
     */
    public static ZarisSerializer create(Format format, ZarisProperties properties, BeanFactory beanFactory) {
        ClassAllowList allowList = ZarisAutoConfiguration.allowList(properties.getSerialization(), beanFactory);
        ClassLoader classLoader = ZarisAutoConfiguration.classLoader(beanFactory);
        return switch (format) {
            case JDK -> new JdkZarisSerializer(allowList, classLoader);
            case JSON -> {
                if (!ClassUtils.isPresent(JSON_MAPPER, classLoader)) {
                    throw new IllegalStateException("the JSON format needs Jackson 3 (tools.jackson.core:jackson-databind)"
                            + " on the classpath; add it (e.g. spring-boot-starter-json) or use jdk");
                }
                yield Json.create(beanFactory, allowList, classLoader);
            }
        };
    }

    /** Separate so that Jackson's classes load only for JSON. */
    private static final class Json {

        static ZarisSerializer create(BeanFactory beanFactory, ClassAllowList allowList, ClassLoader classLoader) {
            JsonMapper mapper = beanFactory.getBeanProvider(JsonMapper.class).getIfUnique(() -> JsonMapper.builder().build());
            return new JsonZarisSerializer(mapper, allowList, classLoader);
        }
    }
}
