package io.proofline.snark.verifier;

/** The answer of a verification: valid, or invalid with the reason in words. */
public record VerificationResult(boolean valid, String reason) {

    public static final VerificationResult VALID = new VerificationResult(true, "OK");

    public static VerificationResult invalid(String reason) {
        return new VerificationResult(false, reason);
    }
}
