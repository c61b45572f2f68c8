package io.zaris.spring.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.client.ClientEnvironment;
import io.zaris.protocol.IoLoops;
import io.zaris.server.ServerArguments;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The documentation checked against the code, so that neither can change without the other:
 * <ul>
 * <li>the Spring Boot properties of {@code docs/configuration.md} against the configuration metadata the build
 * generates from {@code ZarisProperties} (both ways), and every {@code zaris:} key of the YAML examples;
 * <li>the server options table against what the server prints for {@code --help} (both ways), each option's
 * environment variable against the naming rule;
 * <li>every {@code ZARIS_*} variable the pages name against the variables the code reads (both ways for the
 * reference page);
 * <li>the README's dependency snippet and the version in jar names against the parent POM;
 * <li>every relative link of the current pages against the files and headings it names.
 * </ul>
 * Runs in this module because it is the one that sees both the Spring metadata and the engine. The working
 * directory is the module's, so the repository root is {@code ..}.
 */
class DocumentationDriftTests {

    private static final Path ROOT = Path.of("..");
    /** Shorter than any plain sentence that says what a page covers. */
    private static final int MIN_OPENING_CHARACTERS = 50;
    private static final Path METADATA = Path.of("target", "classes", "META-INF", "spring-configuration-metadata.json");
    private static final Pattern VARIABLE = Pattern.compile("\\bZARIS_[A-Z0-9_]*[A-Z0-9]\\b");
    private static final Pattern BENCH_VARIABLE = Pattern.compile("\\bZARIS_BENCH_[A-Z0-9_]*[A-Z0-9]\\b");
    private static final Pattern LOGBACK_VARIABLE = Pattern.compile("\\$\\{(ZARIS_[A-Z0-9_]+)");
    private static final Pattern SERVER_JAR = Pattern.compile("zaris-engine-([0-9][A-Za-z0-9.-]*)-server\\.jar");

    private static MarkdownPage reference;
    private static SpringMetadata metadata;
    private static ServerHelp help;

    @BeforeAll
    static void readReferenceMetadataAndHelp() throws Exception {
        reference = MarkdownPage.read(ROOT.resolve("docs").resolve("configuration.md"));
        metadata = SpringMetadata.read(METADATA);
        help = ServerHelp.run();
    }

    // --- Spring Boot properties ---------------------------------------------------------------------------

    @Test
    void everyPropertyTheReferenceNamesExists() {
        Set<String> unknown = new TreeSet<>();
        for (String property : documentedProperties()) {
            if (!metadata.covers(property)) {
                unknown.add(property);
            }
        }
        assertThat(unknown).as("properties in docs/configuration.md that %s does not have", METADATA).isEmpty();
    }

    @Test
    void everyPropertyThatExistsIsInTheReference() {
        Set<String> documented = documentedProperties();
        Set<String> missing = new TreeSet<>();
        for (String property : metadata.properties()) {
            boolean named = documented.contains(property)
                    || metadata.isMap(property) && documented.stream().anyMatch(name -> name.startsWith(property + ".<"));
            if (!named) {
                missing.add(property);
            }
        }
        assertThat(missing).as("properties of %s missing from the table of docs/configuration.md", METADATA).isEmpty();
    }

    @Test
    void everyZarisKeyOfTheYamlExamplesExists() {
        Set<String> unknown = new TreeSet<>();
        for (MarkdownPage page : subjectPages()) {
            for (String yaml : page.codeBlocks("yaml")) {
                for (String key : YamlKeys.leaves(yaml)) {
                    if (key.startsWith("zaris.") && !metadata.covers(key)) {
                        unknown.add(ROOT.relativize(page.path()) + ": " + key);
                    }
                }
            }
        }
        assertThat(unknown).as("zaris.* keys in YAML examples that no property binds").isEmpty();
    }

    /** The Zaris properties named in the first column of the reference's Spring table; Boot's own are left out. */
    private static Set<String> documentedProperties() {
        Set<String> properties = new TreeSet<>();
        for (List<String> row : reference.tableRows("## Spring Boot properties")) {
            for (String name : MarkdownPage.codeSpans(row.get(0))) {
                if (name.startsWith("zaris.") || name.contains(".zaris.")) {
                    properties.add(name);
                }
            }
        }
        assertThat(properties).as("the Spring table of docs/configuration.md").isNotEmpty();
        return properties;
    }

    // --- Server options -----------------------------------------------------------------------------------

    @Test
    void theOptionsTablesListExactlyTheOptionsOfHelp() throws Exception {
        Set<String> documented = new TreeSet<>();
        for (List<String> row : reference.tableRows("## Server options")) {
            for (String name : MarkdownPage.codeSpans(row.get(0))) {
                if (name.startsWith("--")) {
                    documented.add(name);
                }
            }
        }
        Set<String> options = help.options();

        Set<String> missing = new TreeSet<>(options);
        missing.removeAll(documented);
        Set<String> unknown = new TreeSet<>(documented);
        unknown.removeAll(options);
        assertThat(missing).as("options of --help missing from the tables of docs/configuration.md").isEmpty();
        assertThat(unknown).as("options in the tables of docs/configuration.md that --help does not have").isEmpty();
        assertThat(options).as("options read from --help").contains("--node-id", "--cluster-port");
    }

    @Test
    void everyOptionRowNamesTheOptionsVariable() {
        List<String> wrong = new ArrayList<>();
        for (List<String> row : reference.tableRows("## Server options")) {
            Set<String> variables = variablesIn(row.get(0) + " " + (row.size() > 1 ? row.get(1) : ""));
            for (String name : MarkdownPage.codeSpans(row.get(0))) {
                if (name.startsWith("--") && !variables.contains(variableOf(name))) {
                    wrong.add(name + " should name " + variableOf(name) + " but its row names " + variables);
                }
            }
        }
        assertThat(wrong).isEmpty();
    }

    // --- Environment variables ----------------------------------------------------------------------------

    @Test
    void everyVariableThePagesNameIsReadBySomething() throws Exception {
        Set<String> known = new TreeSet<>(variablesTheCodeReads());
        help.options().forEach(option -> known.add(variableOf(option)));
        metadata.properties().forEach(property -> known.add(relaxedVariableOf(property)));
        Set<String> unknown = new TreeSet<>();
        for (MarkdownPage page : subjectPages()) {
            for (String variable : variablesIn(page.text())) {
                if (!known.contains(variable)) {
                    unknown.add(ROOT.relativize(page.path()) + ": " + variable);
                }
            }
        }
        assertThat(unknown).as("ZARIS_* variables the docs name that nothing reads").isEmpty();
    }

    @Test
    void everyVariableTheCodeReadsIsInTheReference() throws Exception {
        Set<String> documented = variablesIn(reference.text());
        Set<String> missing = new TreeSet<>(variablesTheCodeReads());
        help.options().forEach(option -> missing.add(variableOf(option)));
        missing.removeAll(documented);
        assertThat(missing).as("ZARIS_* variables missing from docs/configuration.md").isEmpty();
    }

    /**
     * The variables read under a name of their own: the client's and the server's constants, the event-loop
     * size, the log level in the server's logging configuration, and the benchmark commands'. The server
     * options' variables follow from {@code --help}; Spring's relaxed binding from the metadata.
     */
    private static Set<String> variablesTheCodeReads() throws IOException {
        Set<String> variables = new TreeSet<>();
        for (Class<?> owner : List.of(ClientEnvironment.class, ServerArguments.class, IoLoops.class)) {
            variables.addAll(stringConstantsStartingWithZaris(owner));
        }
        for (String resource : List.of("zaris-server-logback.xml", "zaris-admin-logback.xml")) {
            variables.addAll(matches(LOGBACK_VARIABLE, 1, classpathText(resource)));
        }
        Path bench = ROOT.resolve("bench");
        try (Stream<Path> files = Stream.concat(
                Stream.of("run", "failover", "redis-benchmark", "soak").map(bench::resolve).filter(Files::isRegularFile),
                Files.walk(bench.resolve("src").resolve("main")).filter(file -> file.toString().endsWith(".java")))) {
            for (Path file : files.toList()) {
                variables.addAll(matches(BENCH_VARIABLE, 0, Files.readString(file)));
            }
        }
        return variables;
    }

    // --- Coordinates --------------------------------------------------------------------------------------

    @Test
    void theReadmesDependencySnippetNamesTheStarterAtThePomsVersion() throws Exception {
        Element parent = pom(ROOT.resolve("pom.xml"));
        String groupId = child(parent, "groupId");
        String version = child(parent, "version");
        String starter = child(pom(ROOT.resolve("zaris-spring-boot-starter").resolve("pom.xml")), "artifactId");
        MarkdownPage readme = MarkdownPage.read(ROOT.resolve("README.md"));

        List<String> snippets = readme.codeBlocks("xml").stream().filter(xml -> xml.contains("<dependency>")).toList();
        assertThat(snippets).as("the README's dependency snippet").hasSize(1);
        Element dependency = parse(snippets.get(0)).getDocumentElement();
        assertThat(child(dependency, "groupId")).isEqualTo(groupId);
        assertThat(child(dependency, "artifactId")).isEqualTo(starter);
        assertThat(child(dependency, "version")).isEqualTo(version);
        assertThat(readme.text()).as("the README's coordinates line")
                .contains("`" + groupId + ":" + starter + ":" + version + "`");
    }

    @Test
    void theServerJarNamesInTheDocsCarryThePomsVersion() throws Exception {
        String version = child(pom(ROOT.resolve("pom.xml")), "version");
        Set<String> wrong = new TreeSet<>();
        for (MarkdownPage page : subjectPages()) {
            for (String named : matches(SERVER_JAR, 1, page.text())) {
                if (!named.equals(version)) {
                    wrong.add(ROOT.relativize(page.path()) + ": zaris-engine-" + named + "-server.jar");
                }
            }
        }
        assertThat(wrong).as("server jar names at another version than %s", version).isEmpty();
    }

    // --- Links --------------------------------------------------------------------------------------------

    @Test
    void everyRelativeLinkOfTheCurrentPagesLeadsToAFileAndHeadingThatExist() throws IOException {
        List<MarkdownPage> pages = new ArrayList<>(subjectPages());
        pages.add(MarkdownPage.read(ROOT.resolve("CHANGELOG.md")));
        pages.add(MarkdownPage.read(ROOT.resolve("docs").resolve("benchmarks").resolve("README.md")));
        pages.add(MarkdownPage.read(ROOT.resolve("docs").resolve("chaos").resolve("README.md")));
        try (Stream<Path> design = Files.list(ROOT.resolve("docs").resolve("design"))) {
            design.filter(file -> file.toString().endsWith(".md")).sorted().forEach(file -> pages.add(MarkdownPage.read(file)));
        }
        Set<String> broken = new TreeSet<>();
        for (MarkdownPage page : pages) {
            for (String target : page.linkTargets()) {
                if (target.matches("^[a-z]+:.*")) {
                    continue; // http:, https:, mailto:
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path resolved = file.isEmpty() ? page.path() : page.path().getParent().resolve(file).normalize();
                String where = ROOT.relativize(page.path()) + ": (" + target + ")";
                if (!Files.exists(resolved)) {
                    broken.add(where + " names no file");
                } else if (hash >= 0 && resolved.toString().endsWith(".md")
                        && !MarkdownPage.read(resolved).anchors().contains(target.substring(hash + 1))) {
                    broken.add(where + " names no heading of " + ROOT.relativize(resolved));
                }
            }
        }
        assertThat(broken).as("relative links of the README and the docs").isEmpty();
    }

    // --- Openings -----------------------------------------------------------------------------------------

    /**
     * A newcomer lands on any page from a link: each one first says, in a paragraph, what it covers. "Says what it
     * covers" cannot be checked by a machine; that a page opens with prose of a sentence or more, not straight
     * with a table, a list or a second heading, can.
     */
    @Test
    void everyPageOpensWithAParagraphSayingWhatItCovers() throws IOException {
        List<MarkdownPage> pages = new ArrayList<>(subjectPages());
        pages.add(MarkdownPage.read(ROOT.resolve("docs").resolve("benchmarks").resolve("README.md")));
        pages.add(MarkdownPage.read(ROOT.resolve("docs").resolve("chaos").resolve("README.md")));
        try (Stream<Path> design = Files.list(ROOT.resolve("docs").resolve("design"))) {
            design.filter(file -> file.toString().endsWith(".md")).sorted().forEach(file -> pages.add(MarkdownPage.read(file)));
        }
        Set<String> withoutOpening = new TreeSet<>();
        for (MarkdownPage page : pages) {
            if (page.openingParagraph().length() < MIN_OPENING_CHARACTERS) {
                withoutOpening.add(ROOT.relativize(page.path()).toString());
            }
        }
        assertThat(withoutOpening).as("pages that do not open with a paragraph saying what they cover").isEmpty();
    }

    // --- helpers ------------------------------------------------------------------------------------------

    /**
     * The README and the pages directly under {@code docs/}, which describe Zaris as it is now. The recorded
     * benchmark and chaos runs and the design notes (in folders of their own) are history: they name what existed
     * when they were written.
     */
    private static List<MarkdownPage> subjectPages() {
        List<MarkdownPage> pages = new ArrayList<>();
        pages.add(MarkdownPage.read(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(file -> file.toString().endsWith(".md"))
                    .sorted()
                    .forEach(file -> pages.add(MarkdownPage.read(file)));
        } catch (IOException e) {
            throw new IllegalStateException("cannot list docs/", e);
        }
        return pages;
    }

    /** The server's rule: {@code --cluster-port} is read from {@code ZARIS_CLUSTER_PORT}. */
    private static String variableOf(String option) {
        return "ZARIS_" + option.substring(2).toUpperCase(Locale.ROOT).replace('-', '_');
    }

    /** Spring's relaxed binding: {@code zaris.tls.key-store-password} is read from {@code ZARIS_TLS_KEYSTOREPASSWORD}. */
    private static String relaxedVariableOf(String property) {
        return property.replace("-", "").replace('.', '_').toUpperCase(Locale.ROOT);
    }

    private static Set<String> variablesIn(String text) {
        return matches(VARIABLE, 0, text);
    }

    private static Set<String> matches(Pattern pattern, int group, String text) {
        Set<String> found = new TreeSet<>();
        Matcher matcher = pattern.matcher(text);
        while (matcher.find()) {
            found.add(matcher.group(group));
        }
        return found;
    }

    private static Set<String> stringConstantsStartingWithZaris(Class<?> owner) {
        Set<String> constants = new TreeSet<>();
        for (Field field : owner.getFields()) {
            int modifiers = field.getModifiers();
            if (field.getType() == String.class && Modifier.isStatic(modifiers) && Modifier.isFinal(modifiers)) {
                try {
                    String value = (String) field.get(null);
                    if (value.startsWith("ZARIS_")) {
                        constants.add(value);
                    }
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("cannot read " + owner.getName() + "." + field.getName(), e);
                }
            }
        }
        return constants;
    }

    private static String classpathText(String resource) throws IOException {
        try (InputStream in = DocumentationDriftTests.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is not on the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static Element pom(Path file) throws Exception {
        return parse(Files.readString(file)).getDocumentElement();
    }

    private static Document parse(String xml) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(new java.io.ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    /** The text of {@code element}'s direct child of that name (not a nested one, such as the parent's version). */
    private static String child(Element element, String name) {
        for (Node node = element.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element child && child.getTagName().equals(name)) {
                return child.getTextContent().trim();
            }
        }
        throw new IllegalStateException("<" + element.getTagName() + "> has no <" + name + ">");
    }

    /**
     * The generated configuration metadata: every property's name and type, and the type of every group, so that
     * a key under a map property ({@code zaris.cache.caches.<name>.ttl}) can be checked against the group of the
     * map's value type ({@code zaris.cache.defaults.ttl}).
     */
    private record SpringMetadata(Map<String, String> propertyTypes, Map<String, String> groupsByType) {

        static SpringMetadata read(Path file) throws IOException {
            if (!Files.isRegularFile(file)) {
                throw new IllegalStateException(file.toAbsolutePath() + " is missing: compile the module first (the"
                        + " configuration processor writes it)");
            }
            JsonNode root = new ObjectMapper().readTree(Files.readString(file));
            Map<String, String> propertyTypes = new HashMap<>();
            for (JsonNode property : root.get("properties")) {
                propertyTypes.put(property.get("name").asString(), property.get("type").asString());
            }
            Map<String, String> groupsByType = new HashMap<>();
            for (JsonNode group : root.get("groups")) {
                groupsByType.putIfAbsent(group.get("type").asString(), group.get("name").asString());
            }
            return new SpringMetadata(propertyTypes, groupsByType);
        }

        Set<String> properties() {
            return new TreeSet<>(propertyTypes.keySet());
        }

        boolean isMap(String property) {
            return propertyTypes.getOrDefault(property, "").startsWith("java.util.Map<");
        }

        /**
         * Whether {@code name} is a property, or a key a map property binds: {@code zaris.cache.caches.<name>.*}
         * for the map itself, {@code zaris.cache.caches.products.ttl} when the map's value type has {@code ttl}.
         */
        boolean covers(String name) {
            if (propertyTypes.containsKey(name)) {
                return true;
            }
            for (String map : propertyTypes.keySet()) {
                if (!isMap(map) || !name.startsWith(map + ".")) {
                    continue;
                }
                String rest = name.substring(map.length() + 1);
                int dot = rest.indexOf('.');
                if (rest.startsWith("<") || dot < 0) {
                    return rest.startsWith("<") || !isMapOfGroups(map);
                }
                String valueType = propertyTypes.get(map);
                String group = groupsByType.get(valueType.substring(valueType.indexOf(',') + 1, valueType.length() - 1));
                return group != null && propertyTypes.containsKey(group + "." + rest.substring(dot + 1));
            }
            return false;
        }

        /** A map whose values are objects with properties of their own, rather than plain values. */
        private boolean isMapOfGroups(String map) {
            String valueType = propertyTypes.get(map);
            return groupsByType.containsKey(valueType.substring(valueType.indexOf(',') + 1, valueType.length() - 1));
        }
    }
}
