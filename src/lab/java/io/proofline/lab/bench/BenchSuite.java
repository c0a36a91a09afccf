package io.proofline.lab.bench;

import java.io.PrintStream;

/** One benchmark suite of {@code bench <suite>} (algebra, later prove, pipeline, gpu): a class each. */
public interface BenchSuite {

    /** The name on the command line. */
    String name();

    /** One line for the usage text. */
    String description();

    int run(String[] args, PrintStream out) throws Exception;
}
