package io.proofline.witness.internal;

import com.dylibso.chicory.wasm.WasmModule;
import com.dylibso.chicory.wasm.types.AnnotatedInstruction;
import com.dylibso.chicory.wasm.types.Element;
import com.dylibso.chicory.wasm.types.Export;
import com.dylibso.chicory.wasm.types.ExportSection;
import com.dylibso.chicory.wasm.types.ExternalType;
import com.dylibso.chicory.wasm.types.FunctionBody;
import com.dylibso.chicory.wasm.types.FunctionImport;
import com.dylibso.chicory.wasm.types.Global;
import com.dylibso.chicory.wasm.types.ImportSection;
import com.dylibso.chicory.wasm.types.Instruction;
import com.dylibso.chicory.wasm.types.NameCustomSection;
import com.dylibso.chicory.wasm.types.OpCode;
import com.dylibso.chicory.wasm.types.StartSection;
import io.proofline.witness.graph.Op;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A circom witness calculator whose field functions run on the host: every call to one of the {@code Fr_*} functions
 * a graph records ({@link Op}, and {@code Fr_toLongNormal}, which hands out witness values) is redirected to an
 * import of module {@value #IMPORT_MODULE}; every other instruction stays as compiled. The module's own field code
 * stays in it, unreferenced.
 *
 * <p>Only where circom's layout is recognised: a name section naming the field functions, and code outside them that
 * calls no field function but those redirected and the plain copies ({@code Fr_copy}, {@code Fr_copyn},
 * {@code Fr_int_copy}, {@code Fr_int_zero}), which move whole elements and so carry the host's values unchanged.
 */
public final class HostFieldModule {

    public static final String IMPORT_MODULE = "proofline";
    /** The function that puts a witness value into the shared memory in its canonical form. */
    public static final String TO_LONG_NORMAL = "Fr_toLongNormal";
    private static final String FIELD_PREFIX = "Fr_";
    private static final Set<String> COPIES = Set.of("Fr_copy", "Fr_copyn", "Fr_int_copy", "Fr_int_zero");

    private final WasmModule module;

    private HostFieldModule(WasmModule module) {
        this.module = module;
    }

    /** The rewritten module. */
    public WasmModule module() {
        return module;
    }

    /**
     * Rewrites {@code parsed} in place (its instructions) into a new module; {@code parsed} must not be used again.
     *
     * @throws UnsupportedModuleException where the module is not laid out as circom lays it out
     */
    public static HostFieldModule rewrite(WasmModule parsed) {
        NameCustomSection names = parsed.nameSection();
        if (names == null || names.functionNameCount() == 0) {
            throw new UnsupportedModuleException("the module has no function names");
        }
        int imported = parsed.importSection().count(ExternalType.FUNCTION);
        int defined = parsed.functionSection().functionCount();
        Map<Integer, Integer> redirected = new HashMap<>();
        List<String> hostFunctions = new ArrayList<>();
        ImportSection.Builder imports = ImportSection.builder();
        parsed.importSection().stream().forEach(imports::addImport);
        for (int i = 0; i < defined; i++) {
            String name = names.nameOfFunction(imported + i);
            if (name != null && (Op.byWasmName(name).isPresent() || name.equals(TO_LONG_NORMAL))) {
                redirected.put(imported + i, imported + hostFunctions.size());
                hostFunctions.add(name);
                imports.addImport(new FunctionImport(IMPORT_MODULE, name, parsed.functionSection().getFunctionType(i)));
            }
        }
        int shift = hostFunctions.size(); // the defined functions move up past the new imports
        if (!hostFunctions.contains(TO_LONG_NORMAL)) {
            throw new UnsupportedModuleException("the module has no " + TO_LONG_NORMAL);
        }
        checkCallers(parsed, names, imported, redirected.keySet());
        IndexMap map = index -> index < imported ? index
                : redirected.getOrDefault(index, index + shift);
        for (FunctionBody body : parsed.codeSection().functionBodies()) {
            for (AnnotatedInstruction instruction : body.instructions()) {
                remap(instruction, map);
            }
        }
        for (Element element : parsed.elementSection().elements()) {
            element.initializers().forEach(init -> init.forEach(i -> remap(i, map)));
        }
        for (Global global : parsed.globalSection().globals()) {
            global.initInstructions().forEach(i -> remap(i, map));
        }
        WasmModule.Builder builder = WasmModule.builder()
                .setTypeSection(parsed.typeSection())
                .setImportSection(imports.build())
                .setFunctionSection(parsed.functionSection())
                .setTableSection(parsed.tableSection())
                .setGlobalSection(parsed.globalSection())
                .setExportSection(exports(parsed.exportSection(), map))
                .setElementSection(parsed.elementSection())
                .setCodeSection(parsed.codeSection())
                .setDataSection(parsed.dataSection());
        parsed.memorySection().ifPresent(builder::setMemorySection);
        parsed.dataCountSection().ifPresent(builder::setDataCountSection);
        parsed.startSection().ifPresent(start -> builder.setStartSection(
                StartSection.builder().setStartIndex(map.of((int) start.startIndex())).build()));
        return new HostFieldModule(builder.build());
    }

    /** Code outside the field functions may call field functions that are redirected or plain copies, no others. */
    private static void checkCallers(WasmModule parsed, NameCustomSection names, int imported, Set<Integer> redirected) {
        Set<String> unsupported = new HashSet<>();
        FunctionBody[] bodies = parsed.codeSection().functionBodies();
        for (int i = 0; i < bodies.length; i++) {
            String caller = names.nameOfFunction(imported + i);
            if (caller != null && caller.startsWith(FIELD_PREFIX)) {
                continue;
            }
            for (AnnotatedInstruction instruction : bodies[i].instructions()) {
                if (instruction.opcode() == OpCode.CALL || instruction.opcode() == OpCode.RETURN_CALL
                        || instruction.opcode() == OpCode.REF_FUNC) {
                    int callee = (int) instruction.operand(0);
                    String name = names.nameOfFunction(callee);
                    if (name != null && name.startsWith(FIELD_PREFIX) && !redirected.contains(callee)
                            && !COPIES.contains(name)) {
                        unsupported.add(name);
                    }
                }
            }
        }
        if (!unsupported.isEmpty()) {
            throw new UnsupportedModuleException("the circuit calls field functions that are not recorded: "
                    + unsupported);
        }
    }

    private static void remap(Instruction instruction, IndexMap map) {
        OpCode op = instruction.opcode();
        if (op == OpCode.CALL || op == OpCode.RETURN_CALL || op == OpCode.REF_FUNC) {
            instruction.setOperand(0, map.of((int) instruction.operand(0)));
        }
    }

    private static ExportSection exports(ExportSection original, IndexMap map) {
        ExportSection.Builder builder = ExportSection.builder();
        for (int i = 0; i < original.exportCount(); i++) {
            Export e = original.getExport(i);
            builder.addExport(e.exportType() == ExternalType.FUNCTION
                    ? new Export(e.name(), map.of(e.index()), e.exportType()) : e);
        }
        return builder.build();
    }

    @FunctionalInterface
    private interface IndexMap {
        int of(int index);
    }
}
