/**
 * The lab: benchmarks ({@code bench}), and the pre-fix admission of DESIGN §1 that the benchmarks and memory tests
 * run beside the product. Built into {@code target/proofline-lab.jar}, never into the service jar; the product
 * never imports it (ArchUnit), and {@code bin/proofline} adds it to the class path for the lab's commands.
 */
package io.proofline.lab;
