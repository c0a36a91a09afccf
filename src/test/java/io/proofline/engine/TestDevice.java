package io.proofline.engine;

/** A named device for tests. */
record TestDevice(String id) implements ProvingDevice {
}
