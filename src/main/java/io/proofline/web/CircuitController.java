package io.proofline.web;

import io.proofline.web.multipart.MultipartUpload;
import io.proofline.service.circuits.CircuitService;
import io.proofline.service.circuits.CircuitState;
import io.proofline.service.InvalidFieldException;
import io.proofline.service.Tenant;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RequestPart;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

import java.util.List;
import java.util.Optional;

@RestController
@RequestMapping("/api/v1/circuits")
@Tag(name = "circuits", description = "register snarkjs/circom circuits (proving keys)")
class CircuitController {

    private final CircuitService circuits;

    CircuitController(CircuitService circuits) {
        this.circuits = circuits;
    }

    @PostMapping(consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
    @Operation(summary = "Register a circuit", description = "multipart: zkey (required), wasm (enables input "
            + "partitions), r1cs (enables the constraint check), name. The key's points are checked after the upload: "
            + "201 when new and READY within proofline.registration.answer-within, else 202 with the circuit "
            + "REGISTERING (poll GET until READY or FAILED); 200 when already registered (202 while it is still "
            + "REGISTERING); 409 when the zkey is registered with another wasm or r1cs (a circuit's files are never "
            + "replaced) or its circuit FAILED.")
    ResponseEntity<CircuitResponse> register(Tenant tenant, @RequestPart("zkey") MultipartFile zkey,
                                             @RequestPart(value = "wasm", required = false) MultipartFile wasm,
                                             @RequestPart(value = "r1cs", required = false) MultipartFile r1cs,
                                             @RequestParam(value = "name", required = false) String name) {
        if (zkey.isEmpty()) {
            throw InvalidFieldException.malformed("zkey", "zkey is empty");
        }
        var registered = circuits.register(tenant, new MultipartUpload(zkey), upload(wasm), upload(r1cs), name);
        CircuitResponse body = CircuitResponse.of(registered.circuit());
        var location = ServletUriComponentsBuilder.fromCurrentRequest().path("/{id}").buildAndExpand(body.id()).toUri();
        HttpStatus status = body.state() != CircuitState.READY ? HttpStatus.ACCEPTED
                : registered.created() ? HttpStatus.CREATED : HttpStatus.OK;
        return ResponseEntity.status(status).location(location).body(body);
    }

    @GetMapping
    @Operation(summary = "List circuits (each with its state and, while REGISTERING, the progress of its check)")
    List<CircuitResponse> list(Tenant tenant) {
        return circuits.statuses(tenant).stream().map(CircuitResponse::of).toList();
    }

    @GetMapping("/{id}")
    @Operation(summary = "One circuit: its state (REGISTERING, READY, FAILED), the progress of its check, the failure")
    CircuitResponse get(Tenant tenant, @PathVariable String id) {
        return CircuitResponse.of(circuits.status(tenant, id));
    }

    @GetMapping(value = "/{id}/verification-key", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "The circuit's snarkjs verification_key.json")
    String verificationKey(Tenant tenant, @PathVariable String id) {
        return circuits.verificationKeyJson(tenant, id);
    }

    @DeleteMapping("/{id}")
    @Operation(summary = "Remove a circuit (409 while unfinished jobs use it)")
    ResponseEntity<Void> delete(Tenant tenant, @PathVariable String id) {
        circuits.delete(tenant, id);
        return ResponseEntity.noContent().build();
    }

    private static Optional<io.proofline.service.Upload> upload(MultipartFile part) {
        return part == null || part.isEmpty() ? Optional.empty() : Optional.of(new MultipartUpload(part));
    }
}
