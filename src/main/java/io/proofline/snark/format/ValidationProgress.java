package io.proofline.snark.format;

/**
 * Told how far the point checks of a proving key have come, section by section: first every point section with
 * {@code checked} 0 (so that a listener knows the whole work before it starts), then as chunks finish. Called from
 * the validating threads, concurrently: implementations must be thread-safe and quick.
 */
@FunctionalInterface
public interface ValidationProgress {

    ValidationProgress NONE = (section, checked, total) -> {
    };

    /**
     * @param section the section's name ({@code "A"}, {@code "B1"}, {@code "B2"}, {@code "C"}, {@code "H"})
     * @param checked points of the section checked so far
     * @param total   points in the section
     */
    void checked(String section, long checked, long total);
}
