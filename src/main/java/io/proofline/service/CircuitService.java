package io.proofline.service;

import io.proofline.snark.Coefficients;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.R1cs;
import io.proofline.snark.VerifyingKey;
import io.proofline.snark.format.FormatException;
import io.proofline.snark.format.R1csReader;
import io.proofline.snark.format.VerificationKeyJson;
import io.proofline.snark.format.ZkeyReader;
import io.proofline.snark.verifier.PreparedVerifyingKey;
import io.proofline.witness.CalculatorOptions;
import io.proofline.witness.CircomWitnessCalculator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The circuit registry: uploads are streamed to the data directory (hashing the zkey on the way: its SHA-256 is the
 * id), validated with the snark readers, and registered; proving keys are loaded on first use by {@link KeyCache}.
 */
@Service
public class CircuitService {

    private static final Logger LOG = LoggerFactory.getLogger(CircuitService.class);
    static final String ZKEY = "circuit.zkey";
    static final String WASM = "circuit.wasm";
    static final String R1CS = "circuit.r1cs";
    static final String VKEY = "verification_key.json";

    private final CircuitStore store;
    private final JobStore jobs;
    private final DataDirectory data;
    private final KeyCache keys;
    private final long maxUpload;
    /** The sandbox the uploaded wasm is probed in: its code runs on a thread of its own under the load timeout. */
    private final CalculatorOptions calculatorOptions;

    CircuitService(CircuitStore store, JobStore jobs, DataDirectory data, KeyCache keys, StoreProperties properties,
                   WitnessProperties witness) {
        this.calculatorOptions = witness.calculatorOptions();
        this.store = store;
        this.jobs = jobs;
        this.data = data;
        this.keys = keys;
        this.maxUpload = properties.maxCircuitSize().toBytes();
    }

    /** The outcome of a registration: the circuit, and whether it was new. */
    public record Registered(CircuitInfo circuit, boolean created) {
    }

    /**
     * Registers a circuit from its zkey and optional witness calculator and constraint system, for {@code tenant}.
     * A zkey registered before (by this or another key) is not stored twice: the tenant is given the use of the
     * circuit, and it counts as created for the tenant when the tenant could not use it before.
     *
     * @throws InvalidFieldException 422 naming the part that does not parse or does not match the zkey
     * @throws TooLargeException     413 when a part exceeds {@code proofline.store.max-circuit-size}
     */
    public Registered register(Tenant tenant, Upload zkey, Optional<Upload> wasm, Optional<Upload> r1cs,
                               String name) {
        if (name != null && name.length() > 200) {
            throw InvalidFieldException.malformed("name", "name is longer than 200 characters");
        }
        Path zkeyTmp = data.newTempFile(".zkey");
        Path wasmTmp = data.newTempFile(".wasm");
        Path r1csTmp = data.newTempFile(".r1cs");
        try {
            String id = receive(zkey, zkeyTmp, "zkey");
            Optional<CircuitInfo> existing = store.find(id);
            if (existing.isPresent()) {
                return new Registered(existing.get(), store.grant(id, tenant.principal()));
            }
            if (wasm.isPresent()) {
                receive(wasm.get(), wasmTmp, "wasm");
            }
            if (r1cs.isPresent()) {
                receive(r1cs.get(), r1csTmp, "r1cs");
            }
            CircuitInfo info = validate(id, name, zkeyTmp, wasm.isPresent() ? wasmTmp : null,
                    r1cs.isPresent() ? r1csTmp : null);
            Path dir = data.circuit(id);
            Files.createDirectories(dir);
            Files.move(zkeyTmp, dir.resolve(ZKEY), StandardCopyOption.REPLACE_EXISTING);
            if (info.hasWasm()) {
                Files.move(wasmTmp, dir.resolve(WASM), StandardCopyOption.REPLACE_EXISTING);
            }
            if (info.hasR1cs()) {
                Files.move(r1csTmp, dir.resolve(R1CS), StandardCopyOption.REPLACE_EXISTING);
            }
            try {
                store.insert(info);
            } catch (DuplicateKeyException raced) {
                return new Registered(store.find(id).orElseThrow(), store.grant(id, tenant.principal()));
            }
            store.grant(id, tenant.principal());
            LOG.info("registered circuit {} ({}, {} constraints, {} variables)", id, info.curve(), info.constraints(),
                    info.variables());
            return new Registered(info, true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            deleteQuietly(zkeyTmp);
            deleteQuietly(wasmTmp);
            deleteQuietly(r1csTmp);
        }
    }

    /** The circuits {@code tenant} may use (the console: all). */
    public List<CircuitInfo> list(Tenant tenant) {
        return store.list(tenant);
    }

    /** The circuit if {@code tenant} may use it; another key's circuit is as absent as one never registered. */
    public CircuitInfo get(Tenant tenant, String id) {
        return (DataDirectory.isCircuitId(id) ? store.find(id, tenant) : Optional.<CircuitInfo>empty())
                .orElseThrow(() -> new NotFoundException("circuitId", "no circuit " + id));
    }

    /** snarkjs's {@code verification_key.json} of the circuit. */
    public String verificationKeyJson(Tenant tenant, String id) {
        get(tenant, id);
        try {
            return Files.readString(data.circuit(id).resolve(VKEY));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Gives up {@code tenant}'s use of a circuit; the circuit itself (row, files, cached key) is removed when no
     * other key may use it (or the console asks), and only while no unfinished job uses it.
     */
    public void delete(Tenant tenant, String id) {
        get(tenant, id);
        if (!tenant.isConsole() && store.holders(id) > 1) {
            store.revoke(id, tenant.principal());
            return;
        }
        if (jobs.hasUnfinishedJobs(id)) {
            throw new ConflictException("circuitId", "circuit " + id + " has unfinished jobs; cancel them first");
        }
        store.delete(id);
        keys.forget(id);
        Path dir = data.circuit(id);
        for (String f : List.of(ZKEY, WASM, R1CS, VKEY)) {
            deleteQuietly(dir.resolve(f));
        }
        deleteQuietly(dir);
    }

    /** Copies the upload to {@code target}, refusing it past the limit; returns its SHA-256 in hex. */
    private String receive(Upload upload, Path target, String field) throws IOException {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        byte[] buffer = new byte[1 << 16];
        long total = 0;
        try (InputStream in = new DigestInputStream(upload.open(), sha); OutputStream out = Files.newOutputStream(target)) {
            for (int n; (n = in.read(buffer)) > 0; ) {
                total += n;
                if (total > maxUpload) {
                    throw new TooLargeException(field, field + " is larger than the limit of " + maxUpload + " bytes");
                }
                out.write(buffer, 0, n);
            }
        }
        if (total == 0) {
            throw InvalidFieldException.malformed(field, field + " is empty");
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private CircuitInfo validate(String id, String name, Path zkey, Path wasm, Path r1csPath) throws IOException {
        try (ProvingKey key = ZkeyReader.read(zkey)) {
            long constraints = constraintsOf(key);
            if (r1csPath != null) {
                R1cs r1cs = parse("r1cs", () -> R1csReader.read(r1csPath));
                if (r1cs.curve() != key.curve() || r1cs.nWires() != key.nVars() || r1cs.nPublic() != key.nPublic()) {
                    throw InvalidFieldException.unprocessable("r1cs", "the r1cs (" + r1cs.curve() + ", "
                            + r1cs.nWires() + " wires, " + r1cs.nPublic() + " public) is not the zkey's circuit ("
                            + key.curve() + ", " + key.nVars() + " variables, " + key.nPublic() + " public)");
                }
                constraints = r1cs.nConstraints();
            }
            if (wasm != null) {
                CircomWitnessCalculator calculator;
                try {
                    calculator = CircomWitnessCalculator.load(wasm, calculatorOptions);
                } catch (RuntimeException e) {
                    throw InvalidFieldException.unprocessable("wasm", "not a circom witness calculator: "
                            + e.getMessage());
                }
                if (!calculator.prime().equals(key.curve().fr().modulus()) || calculator.witnessSize() != key.nVars()) {
                    throw InvalidFieldException.unprocessable("wasm", "the wasm computes " + calculator.witnessSize()
                            + " values mod " + calculator.prime() + ", the zkey has " + key.nVars()
                            + " variables over " + key.curve());
                }
            }
            Path dir = data.circuit(id);
            Files.createDirectories(dir);
            VerifyingKey vk = VerifyingKey.of(key);
            VerificationKeyJson.write(vk, PreparedVerifyingKey.prepare(vk).alphaBeta(), dir.resolve(VKEY));
            String display = name == null || name.isBlank() ? id.substring(0, 12) : name;
            return new CircuitInfo(id, display, key.curve().name(), constraints, key.nVars(), key.nPublic(),
                    key.domainSize(), Files.size(zkey), wasm != null, r1csPath != null, Instant.now());
        } catch (FormatException e) {
            throw InvalidFieldException.unprocessable("zkey", e.getMessage());
        } catch (ServiceException e) {
            throw e;
        } catch (RuntimeException e) {
            // the readers check what they can; anything else a corrupt file trips is still the upload's fault
            throw InvalidFieldException.unprocessable("zkey", "not a valid Groth16 zkey: " + e);
        }
    }

    /**
     * Without an r1cs: the zkey's A matrix holds {@code nPublic + 1} extra rows at {@code nConstraints + s}
     * (DESIGN §7), so the largest A row is {@code nConstraints + nPublic}.
     */
    private static long constraintsOf(ProvingKey key) {
        Coefficients c = key.coefficients();
        int maxRow = -1;
        for (int i = 0; i < c.count(); i++) {
            if (c.matrix(i) == Coefficients.A) {
                maxRow = Math.max(maxRow, c.row(i));
            }
        }
        return Math.max(0, maxRow - key.nPublic());
    }

    private interface Parse<T> {
        T run() throws IOException;
    }

    private static <T> T parse(String field, Parse<T> parse) throws IOException {
        try {
            return parse.run();
        } catch (FormatException e) {
            throw InvalidFieldException.unprocessable(field, e.getMessage());
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            LOG.warn("cannot delete {}: {}", p, e.getMessage());
        }
    }
}
