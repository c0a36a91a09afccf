package io.proofline.web;

/** Whether the proof is valid, and why not. */
record VerifyResponse(boolean valid, String reason) {
}
