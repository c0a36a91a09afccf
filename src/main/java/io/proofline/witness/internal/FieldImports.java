package io.proofline.witness.internal;

import com.dylibso.chicory.runtime.HostFunction;
import com.dylibso.chicory.runtime.WasmFunctionHandle;
import com.dylibso.chicory.wasm.types.FunctionType;
import io.proofline.witness.graph.Op;

/** The host functions behind a {@link HostFieldModule}'s imports, each calling one {@link FieldHost}. */
final class FieldImports {

    private FieldImports() {
    }

    static HostFunction function(String name, FunctionType type, FieldHost host) {
        return new HostFunction(HostFieldModule.IMPORT_MODULE, name, type, handle(name, host));
    }

    private static WasmFunctionHandle handle(String name, FieldHost host) {
        if (name.equals(HostFieldModule.TO_LONG_NORMAL)) {
            return (instance, args) -> {
                host.toLongNormal(instance.memory(), (int) args[0]);
                return null;
            };
        }
        Op op = Op.byWasmName(name).orElseThrow(() -> new IllegalStateException("no host function " + name));
        if (op.isConversion()) {
            return op.arity() == 1
                    ? (instance, args) -> new long[] {host.convert(op, instance.memory(), (int) args[0], 0)}
                    : (instance, args) -> new long[] {host.convert(op, instance.memory(), (int) args[0],
                            (int) args[1])};
        }
        return op.arity() == 1
                ? (instance, args) -> {
                    host.operate(op, instance.memory(), (int) args[0], (int) args[1], 0);
                    return null;
                }
                : (instance, args) -> {
                    host.operate(op, instance.memory(), (int) args[0], (int) args[1], (int) args[2]);
                    return null;
                };
    }
}
