package io.zaris.spring.serialization;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Objects;

/**
 * Java serialization, with reading restricted by an {@link java.io.ObjectInputFilter} built from a
 * {@link ClassAllowList}: a stored entry that names any other class is refused before that class is
 * loaded or initialized, so a poisoned cache entry cannot run a deserialization gadget.
 *
 * <p>Stateless apart from its immutable allow-list and class loader; thread-safe.
 */
public final class JdkZarisSerializer implements ZarisSerializer {

    private final ClassAllowList allowList;
    private final ClassLoader classLoader;

    public JdkZarisSerializer(ClassAllowList allowList, ClassLoader classLoader) {
        this.allowList = Objects.requireNonNull(allowList, "allowList must not be null");
        this.classLoader = classLoader;
    }

    @Override
    public byte[] serialize(Object value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (NotSerializableException e) {
            throw new ZarisSerializationException("value of type " + typeOf(value) + " is not serializable: "
                    + e.getMessage() + " does not implement java.io.Serializable", e);
        } catch (IOException e) {
            throw new ZarisSerializationException("value of type " + typeOf(value) + " cannot be serialized: "
                    + e.getMessage(), e);
        }
        return bytes.toByteArray();
    }

    @Override
    public Object deserialize(byte[] bytes) {
        try (ObjectInputStream in = new LoaderAwareObjectInputStream(new ByteArrayInputStream(bytes), classLoader)) {
            in.setObjectInputFilter(allowList.filter());
            return in.readObject();
        } catch (InvalidClassException e) {
            throw new ZarisSerializationException("stored value refused: " + e.getMessage()
                    + " (classes outside the allow-list [" + allowList + "] are never instantiated;"
                    + " add the class or its package to zaris.serialization.allowed-classes)", e);
        } catch (IOException | ClassNotFoundException e) {
            throw new ZarisSerializationException("stored value cannot be deserialized: " + e, e);
        }
    }

    public ClassAllowList allowList() {
        return allowList;
    }

    private static String typeOf(Object value) {
        return value == null ? "null" : value.getClass().getName();
    }

    /** Resolves classes through the application's class loader (devtools and fat jars use their own). */
    private static final class LoaderAwareObjectInputStream extends ObjectInputStream {

        private final ClassLoader classLoader;

        LoaderAwareObjectInputStream(ByteArrayInputStream in, ClassLoader classLoader) throws IOException {
            super(in);
            this.classLoader = classLoader;
        }

        @Override
        protected Class<?> resolveClass(java.io.ObjectStreamClass descriptor) throws IOException, ClassNotFoundException {
            if (classLoader == null) {
                return super.resolveClass(descriptor);
            }
            try {
                return Class.forName(descriptor.getName(), false, classLoader);
            } catch (ClassNotFoundException e) {
                return super.resolveClass(descriptor);
            }
        }
    }
}
