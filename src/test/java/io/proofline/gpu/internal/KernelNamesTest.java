package io.proofline.gpu.internal;

import io.proofline.gpu.GpuCurve;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every kernel the Java side launches is defined in native-cuda/, and every kernel defined there is launched: read
 * from the sources (the CUDA macros that name kernels {@code <prefix>_<kernel>} expanded here), so that a kernel
 * renamed or deleted on one side fails here and not first on a GPU, and a kernel nothing launches does not cost
 * compile time unnoticed.
 */
class KernelNamesTest {

    private static final Path CUDA = Path.of("native-cuda");
    /** The gpu packages, and the lab's timing harness (the multiplication-rate kernels are only its). */
    private static final List<Path> JAVA = List.of(Path.of("src/main/java/io/proofline/gpu"),
            Path.of("src/lab/java/io/proofline/lab/gpu"));
    /** The field prefixes the self-test builds kernel names from ({@code curve.kernel(name + "_selftest")}). */
    private static final List<String> FIELDS = List.of("fq", "fr", "fq2");

    private static final Pattern DEFINE = Pattern.compile("#define\\s+(\\w+)\\(\\s*(\\w+)[^)]*\\)(.*)");
    private static final Pattern PASTED_KERNEL = Pattern.compile("(\\w+)##_(\\w+)\\s*\\(");
    private static final Pattern NESTED_MACRO = Pattern.compile("\\b([A-Z][A-Z0-9_]+)\\(\\s*(\\w+)(?:##(_\\w+))?\\s*[,)]");
    private static final Pattern PLAIN_KERNEL = Pattern.compile("__global__\\s+void\\s+(?:__launch_bounds__\\([^)]*\\)\\s*)?(\\w+)\\s*\\(");
    private static final Pattern TOP_MACRO = Pattern.compile("(?m)^\\s*([A-Z][A-Z0-9_]+)\\((\\w+)[^)]*\\)\\s*$");

    @Test
    void theJavaSideAndTheCudaSourcesNameTheSameKernels() throws IOException {
        Set<String> defined = definedKernels();
        Set<String> launched = launchedKernels();
        assertThat(defined).as("kernels in native-cuda/").contains("proofline_tunables", "bn254_g1_accumulate_tasks",
                "bls12_381_g2_reduce_level", "bls12_381_fr_ntt_pass", "bn254_fq_mul_chain");
        assertThat(launched).as("kernels the Java side launches that native-cuda/ does not define")
                .isSubsetOf(defined);
        Set<String> unused = new TreeSet<>(defined);
        unused.removeAll(launched);
        assertThat(unused).as("kernels native-cuda/ compiles that nothing launches").isEmpty();
    }

    /**
     * The extern "C" kernels of the sources the build compiles: the units of native-cuda/modules/ and the headers they
     * include (native-cuda/test/ is a host test, not a module).
     */
    static Set<String> definedKernels() throws IOException {
        Map<String, String> macroParameter = new HashMap<>();
        Map<String, String> macroBody = new HashMap<>();
        StringBuilder topLevel = new StringBuilder();
        for (Path file : sources(CUDA, ".cu", ".cuh")) {
            if (file.startsWith(CUDA.resolve("test"))) {
                continue;
            }
            String text = Files.readString(file).replace("\\\n", " ");
            for (String line : text.split("\n")) {
                Matcher m = DEFINE.matcher(line);
                if (m.find()) {
                    macroParameter.put(m.group(1), m.group(2));
                    macroBody.put(m.group(1), m.group(3));
                } else {
                    topLevel.append(line).append('\n');
                }
            }
        }
        Set<String> kernels = new TreeSet<>();
        Matcher plain = PLAIN_KERNEL.matcher(topLevel);
        while (plain.find()) {
            kernels.add(plain.group(1));
        }
        Matcher invocation = TOP_MACRO.matcher(topLevel);
        while (invocation.find()) {
            if (macroBody.containsKey(invocation.group(1))) {
                expand(invocation.group(1), invocation.group(2), macroParameter, macroBody, kernels);
            }
        }
        return kernels;
    }

    private static void expand(String macro, String prefix, Map<String, String> parameter, Map<String, String> body,
                               Set<String> into) {
        String p = parameter.get(macro);
        Matcher kernel = PASTED_KERNEL.matcher(body.get(macro));
        while (kernel.find()) {
            if (kernel.group(1).equals(p)) {
                into.add(prefix + "_" + kernel.group(2));
            }
        }
        Matcher nested = NESTED_MACRO.matcher(body.get(macro));
        while (nested.find()) {
            if (body.containsKey(nested.group(1)) && nested.group(2).equals(p)) {
                String suffix = nested.group(3) == null ? "" : nested.group(3);
                expand(nested.group(1), prefix + suffix, parameter, body, into);
            }
        }
    }

    /** The kernel names in the gpu packages' launches: literal names, and a curve's or a group's kernels. */
    static Set<String> launchedKernels() throws IOException {
        Set<String> names = new TreeSet<>();
        List<Path> files = new ArrayList<>();
        for (Path root : JAVA) {
            files.addAll(sources(root, ".java"));
        }
        for (Path file : files) {
            String text = Files.readString(file);
            find(text, "\"(proofline_\\w+)\"", names::add);
            find(text, "group\\.kernel\\(\"(\\w+)\"\\)", k -> {
                for (GpuCurve curve : GpuCurve.values()) {
                    names.add(GpuGroup.g1(curve).kernel(k));
                    names.add(GpuGroup.g2(curve).kernel(k));
                }
            });
            find(text, "curve\\.kernel\\(\"(\\w+)\"\\)", k -> {
                for (GpuCurve curve : GpuCurve.values()) {
                    names.add(curve.kernel(k));
                }
            });
            find(text, "curve\\.kernel\\(name \\+ \"(\\w+)\"\\)", suffix -> {
                for (GpuCurve curve : GpuCurve.values()) {
                    FIELDS.forEach(field -> names.add(curve.kernel(field + suffix)));
                }
            });
        }
        return names;
    }

    private static void find(String text, String regex, java.util.function.Consumer<String> each) {
        Matcher m = Pattern.compile(regex).matcher(text);
        while (m.find()) {
            each.accept(m.group(1));
        }
    }

    private static List<Path> sources(Path root, String... suffixes) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            List<Path> out = new ArrayList<>();
            files.filter(f -> Stream.of(suffixes).anyMatch(s -> f.toString().endsWith(s))).sorted().forEach(out::add);
            return out;
        }
    }
}
