package io.zaris.spring.aot;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * What the starter does by reflection, serialization or resource lookup that a native image cannot see, so that
 * Spring's AOT processing writes it into the image's reachability metadata.
 *
 * <ul>
 * <li><b>JGroups</b> (the embedded nodes' membership): it reads its id tables ({@value #MAGIC_MAP},
 * {@value #PROTOCOL_IDS}) and messages bundle as resources, creates every class those tables name by
 * reflection when a header or message of that id arrives, and creates the stack's protocols by name and sets
 * their configured attributes on their fields (inherited ones included).
 * <li><b>The cluster secret's token</b>, which JGroups' AUTH recreates by class name on the receiving node.
 * <li><b>JDK serialization</b> of the value types the default allow-list admits (strings, boxed numbers,
 * {@code java.math}, {@code java.time} through its serial proxy, the common collections). The application's own
 * value classes are its to register, as for any serialized type in a native image.
 * </ul>
 *
 * <p>The id tables are read from the class path when the hints are registered (at build time), so a JGroups
 * upgrade that adds classes is covered without a change here.
 */
public final class ZarisRuntimeHints implements RuntimeHintsRegistrar {

    static final String MAGIC_MAP = "jg-magic-map.xml";
    static final String PROTOCOL_IDS = "jg-protocol-ids.xml";
    static final String MESSAGES_BUNDLE = "jg-messages";
    static final String VERSION_PROPERTIES = "JGROUPS_VERSION.properties";

    /**
     * The protocols of the stacks the engine builds (loopback for tests, TCP for real clusters) and of the
     * cluster secret's encryption and authentication: created by name from the stack's XML.
     */
    static final List<String> STACK_PROTOCOLS = List.of(
            "org.jgroups.protocols.SHARED_LOOPBACK", "org.jgroups.protocols.SHARED_LOOPBACK_PING",
            "org.jgroups.protocols.TCP_NIO2", "org.jgroups.protocols.TCPPING", "org.jgroups.protocols.MERGE3",
            "org.jgroups.protocols.FD_SOCK2", "org.jgroups.protocols.FD_ALL3", "org.jgroups.protocols.VERIFY_SUSPECT2",
            "org.jgroups.protocols.pbcast.NAKACK2", "org.jgroups.protocols.UNICAST3",
            "org.jgroups.protocols.pbcast.STABLE", "org.jgroups.protocols.pbcast.GMS", "org.jgroups.protocols.FRAG2",
            "org.jgroups.protocols.SYM_ENCRYPT", "org.jgroups.protocols.AUTH");

    /** The token AUTH sends with a join; the receiving node creates it by name. */
    static final String CLUSTER_SECRET_TOKEN = "io.zaris.cluster.ClusterSecretToken";

    /** Value types of the default allow-list that applications cache most; see the class comment. */
    static final List<Class<? extends java.io.Serializable>> SERIALIZED_JDK_TYPES = List.of(String.class,
            Boolean.class, Character.class, Number.class, Byte.class, Short.class, Integer.class, Long.class,
            Float.class, Double.class,
            java.math.BigInteger.class, java.math.BigDecimal.class, java.util.ArrayList.class,
            java.util.LinkedList.class, java.util.HashMap.class, java.util.LinkedHashMap.class,
            java.util.TreeMap.class, java.util.HashSet.class, java.util.LinkedHashSet.class, java.util.TreeSet.class,
            java.util.UUID.class, java.util.Date.class, Enum.class);

    /** java.time's types serialize through this package-private proxy. */
    static final String JAVA_TIME_SERIAL_PROXY = "java.time.Ser";

    private static final Pattern CLASS_NAME = Pattern.compile("name=\"([\\w.$]+)\"");

    private static final MemberCategory[] CREATED_AND_CONFIGURED = {MemberCategory.INVOKE_DECLARED_CONSTRUCTORS,
            MemberCategory.INVOKE_PUBLIC_METHODS, MemberCategory.ACCESS_DECLARED_FIELDS};

    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
        ClassLoader loader = classLoader != null ? classLoader : ZarisRuntimeHints.class.getClassLoader();
        if (loader.getResource(MAGIC_MAP) == null) {
            return; // no JGroups: a client-only class path needs none of its hints
        }
        hints.resources().registerPattern(MAGIC_MAP).registerPattern(PROTOCOL_IDS)
                .registerPattern(VERSION_PROPERTIES).registerResourceBundle(MESSAGES_BUNDLE);
        for (String table : List.of(MAGIC_MAP, PROTOCOL_IDS)) {
            classNamesIn(loader, table).forEach(name -> hints.reflection()
                    .registerType(TypeReference.of(name), CREATED_AND_CONFIGURED));
        }
        STACK_PROTOCOLS.forEach(name -> registerWithSuperclasses(hints, loader, name));
        hints.reflection().registerType(TypeReference.of(CLUSTER_SECRET_TOKEN), CREATED_AND_CONFIGURED);
        SERIALIZED_JDK_TYPES.forEach(type -> hints.serialization().registerType(type));
        hints.serialization().registerType(TypeReference.of(JAVA_TIME_SERIAL_PROXY));
    }

    /** A protocol's attributes may be declared on any of its superclasses, which JGroups walks too. */
    private static void registerWithSuperclasses(RuntimeHints hints, ClassLoader loader, String name) {
        Class<?> type;
        try {
            type = Class.forName(name, false, loader);
        } catch (ClassNotFoundException e) {
            return; // a JGroups without this protocol: nothing of it can be created
        }
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            hints.reflection().registerType(c, CREATED_AND_CONFIGURED);
        }
    }

    /** The class names a JGroups id table lists. */
    static List<String> classNamesIn(ClassLoader loader, String resource) {
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null) {
                return List.of();
            }
            Matcher matcher = CLASS_NAME.matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            return matcher.results().map(match -> match.group(1)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource + " from the class path", e);
        }
    }
}
