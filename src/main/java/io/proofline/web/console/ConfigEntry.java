package io.proofline.web.console;

/**
 * One effective setting.
 *
 * @param group    {@code memory}, {@code pipeline}, {@code gpu}, ...
 * @param property its property name ({@code proofline.memory.budget})
 * @param value    the value in effect, in human units where it is a size or a time
 */
public record ConfigEntry(String group, String property, String value) {
}
