/**
 * Multipart uploads: a circuit's files and the parts of a witness job, read into files.
 */
package io.proofline.web.multipart;
