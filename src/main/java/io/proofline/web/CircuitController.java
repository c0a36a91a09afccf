package io.proofline.web;

import io.proofline.service.DataDirectory;
import io.proofline.service.Upload;
import io.proofline.web.multipart.CircuitUploadReader;
import io.proofline.web.multipart.MultipartCircuitRegistration;
import io.proofline.web.multipart.StagedPart;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.beans.factory.ObjectProvider;
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
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

@RestController
@RequestMapping(CircuitController.PATH)
@Tag(name = "circuits", description = "register snarkjs/circom circuits (proving keys)")
class CircuitController {

    static final String PATH = "/api/v1/circuits";

    private final CircuitService circuits;
    private final ObjectProvider<DataDirectory> data;

    CircuitController(CircuitService circuits, ObjectProvider<DataDirectory> data) {
        this.circuits = circuits;
        this.data = data;
    }

    @PostMapping(consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
    @Operation(summary = "Register a circuit", description = "multipart: zkey (required), wasm (enables input "
            + "partitions), r1cs (enables the constraint check), name. The key's points are checked after the upload: "
            + "201 when new and READY within proofline.registration.answer-within, else 202 with the circuit "
            + "REGISTERING (poll GET until READY or FAILED); 200 when already registered (202 while it is still "
            + "REGISTERING); 409 when the zkey is registered with another wasm or r1cs (a circuit's files are never "
            + "replaced) or its circuit FAILED.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = MediaType.MULTIPART_FORM_DATA_VALUE,
                    schema = @Schema(implementation = MultipartCircuitRegistration.class))))
    ResponseEntity<CircuitResponse> register(Tenant tenant, HttpServletRequest request) throws IOException {
        try (CircuitUploadReader.CircuitUpload upload = CircuitUploadReader.read(request.getInputStream(),
                request.getContentType(), stagingDirectory())) {
            StagedPart zkey = upload.zkey().orElseThrow(() -> InvalidFieldException.malformed("zkey",
                    "zkey is required (a non-empty 'zkey' part)"));
            var registered = circuits.register(tenant, zkey, upload.wasm().map(Upload.class::cast),
                    upload.r1cs().map(Upload.class::cast), upload.name());
            CircuitResponse body = CircuitResponse.of(registered.circuit());
            var location = ServletUriComponentsBuilder.fromCurrentRequest().path("/{id}").buildAndExpand(body.id())
                    .toUri();
            HttpStatus status = body.state() != CircuitState.READY ? HttpStatus.ACCEPTED
                    : registered.created() ? HttpStatus.CREATED : HttpStatus.OK;
            return ResponseEntity.status(status).location(location).body(body);
        }
    }

    /** Where a registration's parts arrive: the data directory's tmp/ (a rename away from circuits/). */
    private Path stagingDirectory() throws IOException {
        DataDirectory dir = data.getIfAvailable();
        // no data directory in a web slice without the service layer: a temporary directory then
        return dir != null ? dir.newStagingDirectory(".upload") : Files.createTempDirectory("proofline-upload");
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

}
