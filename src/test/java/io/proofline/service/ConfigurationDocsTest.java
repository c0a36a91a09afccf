package io.proofline.service;

import io.proofline.service.config.DemoProperties;
import io.proofline.service.config.EngineConfiguration;
import io.proofline.service.config.PipelineProperties;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;

import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The root {@code application.yml} is the one place that documents the {@code proofline.*} settings, while their
 * defaults live in the property records. This keeps the two in step: every record component has a key in the file
 * (set, or commented out where the default is "none"), and the file sets nothing to other than its default.
 */
class ConfigurationDocsTest {

    private static final Path DOCUMENTED = Path.of("application.yml");
    /** A commented-out key at a key's indentation ({@code "    # budget: 48GB"}), not a wrapped comment. */
    private static final Pattern COMMENTED_KEY = Pattern.compile("(?m)^((?:  ){0,6})# ([a-z][a-z0-9-]*: )");

    static List<Class<?>> propertyRecords() {
        return List.of(EngineConfiguration.class.getAnnotation(EnableConfigurationProperties.class).value());
    }

    @Test
    void everyKeyOfEveryRecordIsDocumented() throws IOException {
        String text = Files.readString(DOCUMENTED);
        Binder uncommented = binder(yaml("uncommented", COMMENTED_KEY.matcher(text).replaceAll("$1$2")));
        Set<String> documented = new TreeSet<>();
        uncommented.bind("proofline", Bindable.mapOf(String.class, Object.class))
                .ifBound(tree -> flatten("proofline", tree, documented));

        Set<String> missing = new TreeSet<>();
        for (Class<?> type : propertyRecords()) {
            keys(prefix(type), type).stream().filter(k -> !documented.contains(k)).forEach(missing::add);
        }
        assertThat(missing).as("keys of the property records that " + DOCUMENTED + " does not document").isEmpty();
        assertThat(propertyRecords()).as("the records the service binds").contains(PipelineProperties.class,
                DemoProperties.class);
    }

    @Test
    void theDocumentedFileChangesNoDefault() throws IOException {
        List<PropertySource<?>> packaged = new YamlPropertySourceLoader().load("jar",
                new ClassPathResource("application.yml"));
        List<PropertySource<?>> withDocs = new ArrayList<>(yaml("documented", Files.readString(DOCUMENTED)));
        withDocs.addAll(packaged);
        Binder jarOnly = binder(packaged);
        Binder documented = binder(withDocs);
        for (Class<?> type : propertyRecords()) {
            Object expected = jarOnly.bindOrCreate(prefix(type), type);
            assertThat(documented.bindOrCreate(prefix(type), type)).as(prefix(type)).isEqualTo(expected);
        }
    }

    private static String prefix(Class<?> type) {
        ConfigurationProperties p = type.getAnnotation(ConfigurationProperties.class);
        return p.prefix().isEmpty() ? p.value() : p.prefix();
    }

    /** The dotted keys of a record's components; a component that is itself one of ours is a group of keys. */
    private static List<String> keys(String prefix, Class<?> type) {
        List<String> keys = new ArrayList<>();
        for (RecordComponent c : type.getRecordComponents()) {
            String key = prefix + "." + kebab(c.getName());
            if (c.getType().isRecord() && c.getType().getPackageName().startsWith("io.proofline")) {
                keys.addAll(keys(key, c.getType()));
            } else {
                keys.add(key);
            }
        }
        return keys;
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase();
    }

    private static void flatten(String prefix, Object node, Set<String> into) {
        if (node instanceof java.util.Map<?, ?> map && !map.isEmpty()) {
            map.forEach((k, v) -> flatten(prefix + "." + k, v, into));
        } else {
            into.add(prefix.replaceAll("\\[\\d+]$", ""));
        }
    }

    private static List<PropertySource<?>> yaml(String name, String text) throws IOException {
        Resource resource = new ByteArrayResource(text.getBytes(StandardCharsets.UTF_8), name);
        return new YamlPropertySourceLoader().load(name, resource);
    }

    private static Binder binder(List<PropertySource<?>> sources) {
        return new Binder(ConfigurationPropertySources.from(sources), new PropertySourcesPlaceholdersResolver(sources));
    }
}
