package io.zaris.spring.serialization;

import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON through Jackson 3. Each value is stored as {@code {"@class": "<type>", "value": <json>}}: the class
 * is what the value is read back as, and it is checked against the {@link ClassAllowList} before it is
 * loaded.
 *
 * <p>Only the top-level type is recorded: fields are read back as their declared types (records and
 * beans with typed fields round-trip exactly), but a top-level {@code List<Product>} comes back as a list
 * of maps. Cache a record or bean that wraps the collection instead, or use the JDK format.
 *
 * <p>{@link ObjectMapper} is thread-safe once configured, so this class is too.
 */
public final class JsonZarisSerializer implements ZarisSerializer {

    static final String CLASS_FIELD = "@class";
    static final String VALUE_FIELD = "value";

    private final ObjectMapper mapper;
    private final ClassAllowList allowList;
    private final ClassLoader classLoader;

    public JsonZarisSerializer(ObjectMapper mapper, ClassAllowList allowList, ClassLoader classLoader) {
        this.mapper = Objects.requireNonNull(mapper, "mapper must not be null");
        this.allowList = Objects.requireNonNull(allowList, "allowList must not be null");
        this.classLoader = classLoader != null ? classLoader : JsonZarisSerializer.class.getClassLoader();
    }

    @Override
    public byte[] serialize(Object value) {
        Objects.requireNonNull(value, "value must not be null");
        try {
            ObjectNode envelope = mapper.createObjectNode();
            envelope.put(CLASS_FIELD, value.getClass().getName());
            envelope.set(VALUE_FIELD, mapper.valueToTree(value));
            return mapper.writeValueAsBytes(envelope);
        } catch (JacksonException e) {
            throw new ZarisSerializationException("value of type " + value.getClass().getName()
                    + " cannot be written as JSON: " + e.getOriginalMessage(), e);
        }
    }

    @Override
    public Object deserialize(byte[] bytes) {
        JsonNode envelope;
        try {
            envelope = mapper.readTree(bytes);
        } catch (JacksonException e) {
            throw new ZarisSerializationException("stored value is not JSON: " + e.getOriginalMessage(), e);
        }
        JsonNode type = envelope == null ? null : envelope.get(CLASS_FIELD);
        if (type == null || !type.isString() || !envelope.has(VALUE_FIELD)) {
            throw new ZarisSerializationException("stored JSON value has no \"" + CLASS_FIELD + "\" and \""
                    + VALUE_FIELD + "\" fields; it was not written by Zaris' JSON serializer");
        }
        String className = type.asString();
        if (!allowList.allows(className)) {
            throw new ZarisSerializationException("stored value refused: class " + className
                    + " is outside the allow-list [" + allowList + "]; add it or its package to"
                    + " zaris.serialization.allowed-classes");
        }
        Class<?> target;
        try {
            target = Class.forName(className, false, classLoader);
        } catch (ClassNotFoundException e) {
            throw new ZarisSerializationException("stored value has class " + className
                    + ", which this application does not have", e);
        }
        try {
            return mapper.treeToValue(envelope.get(VALUE_FIELD), target);
        } catch (JacksonException e) {
            throw new ZarisSerializationException("stored value cannot be read as " + className + ": "
                    + e.getOriginalMessage(), e);
        }
    }
}
