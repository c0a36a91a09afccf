{{/*
Bytes of a Kubernetes quantity ("16Gi", "1500M", "12GiB", 17179869184). Binary suffixes (Ki, Mi, Gi, Ti,
and the service's KiB..TiB) are powers of 1024, decimal ones (k, M, G, T, KB..TB) powers of 1000.
*/}}
{{- define "proofline.bytes" -}}
{{- $q := . -}}
{{- if or (kindIs "float64" $q) (kindIs "int64" $q) (kindIs "int" $q) -}}
{{- $q = printf "%.0f" (float64 $q) -}}
{{- else -}}
{{- $q = toString $q | trim -}}
{{- end -}}
{{- $number := regexFind "^[0-9]+(\\.[0-9]+)?" $q -}}
{{- if not $number -}}
{{- fail (printf "cannot read %q as a memory quantity (e.g. 16Gi)" $q) -}}
{{- end -}}
{{- $suffix := trimPrefix $number $q -}}
{{- $units := dict "" 1 "k" 1000 "K" 1000 "M" 1000000 "G" 1000000000 "T" 1000000000000 "KB" 1000 "MB" 1000000 "GB" 1000000000 "TB" 1000000000000 "Ki" 1024 "Mi" 1048576 "Gi" 1073741824 "Ti" 1099511627776 "KiB" 1024 "MiB" 1048576 "GiB" 1073741824 "TiB" 1099511627776 -}}
{{- if not (hasKey $units $suffix) -}}
{{- fail (printf "cannot read %q as a memory quantity: unknown unit %q" $q $suffix) -}}
{{- end -}}
{{- printf "%.0f" (floor (mulf $number (index $units $suffix))) -}}
{{- end -}}

{{/*
The memory the chart hands the service. The pod's memory limit is the cgroup limit the service reads itself
(engine MemoryLimit); from it the image's entrypoint sizes the JVM (`proofline heap-opts`, the one heap rule) and
the service splits it into the declared fixed part and the proving budget. The chart only checks what it can see:
a limit is set, the request is not above it, and an explicit memory.budget is below the limit. Returns YAML whose
numbers are strings of bytes, so that they survive fromYaml without turning into floats:
  {{- $mem := include "proofline.memory" . | fromYaml }}  ...  {{ $mem.limitBytes }}
*/}}
{{- define "proofline.memory" -}}
{{- $limit := dig "limits" "memory" "" .Values.resources -}}
{{- if not $limit -}}
{{- fail "resources.limits.memory is required: the service's memory limit, its JVM options and its budget are derived from it" -}}
{{- end -}}
{{- $limitBytes := include "proofline.bytes" $limit | float64 -}}
{{- $request := dig "requests" "memory" "" .Values.resources -}}
{{- if and $request (gt (include "proofline.bytes" $request | float64) $limitBytes) -}}
{{- fail (printf "resources.requests.memory (%v) exceeds resources.limits.memory (%v)" $request $limit) -}}
{{- end -}}
{{- $budget := "" -}}
{{- if .Values.memory.budget -}}
{{- $budgetBytes := include "proofline.bytes" .Values.memory.budget | float64 -}}
{{- if ge $budgetBytes $limitBytes -}}
{{- fail (printf "memory.budget (%v) must be below resources.limits.memory (%v): the heap, metaspace, stacks and drivers live beside it" .Values.memory.budget $limit) -}}
{{- end -}}
{{- $budget = printf "%.0f" $budgetBytes -}}
{{- end -}}
limitBytes: {{ printf "%.0f" $limitBytes | quote }}
budgetBytes: {{ $budget | quote }}
{{- end -}}
