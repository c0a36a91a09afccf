/**
 * Registered circuits: intake of a circuit's files, the check of its key's points, its rows and state in the
 * store, the host-side {@code KeyCache} the engine admits keys from (charged to the budget), verification against a
 * circuit's key, and the demo circuit.
 */
package io.proofline.service.circuits;
