/**
 * Vectors of field elements off-heap ({@link io.proofline.algebra.poly.FieldVector}), parallel loops over them
 * ({@link io.proofline.algebra.poly.ParallelRange}) and the radix-2 NTT ({@link io.proofline.algebra.poly.Radix2Domain}).
 */
package io.proofline.algebra.poly;
