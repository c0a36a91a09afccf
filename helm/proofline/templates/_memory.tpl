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
The memory plan: container limit, JVM heap and the service's off-heap budget, consistent by construction.

  usable = limit × usableFraction          (the rest: JVM native memory, CUDA context, malloc arenas)
  heap   = memory.heap, rounded down to whole MiB (-Xmx<n>m)
  budget = memory.budget, or usable − heap

Fails to render when heap + budget > usable or budget < minimumBudget. Returns YAML whose numbers are
strings of bytes, so that they survive fromYaml without turning into floats:
  {{- $mem := include "proofline.memory" . | fromYaml }}  ...  {{ $mem.budgetBytes }}
*/}}
{{- define "proofline.memory" -}}
{{- $limit := dig "limits" "memory" "" .Values.resources -}}
{{- if not $limit -}}
{{- fail "resources.limits.memory is required: the service's memory budget (PROOFLINE_MEMORY_BUDGET) is derived from it" -}}
{{- end -}}
{{- $fraction := float64 .Values.memory.usableFraction -}}
{{- if or (le $fraction 0.0) (gt $fraction 1.0) -}}
{{- fail (printf "memory.usableFraction must be in (0, 1] (got %v)" .Values.memory.usableFraction) -}}
{{- end -}}
{{- $limitBytes := include "proofline.bytes" $limit | float64 -}}
{{- $usable := floor (mulf $limitBytes $fraction) -}}
{{- $heapMi := floor (divf (include "proofline.bytes" .Values.memory.heap | float64) 1048576) -}}
{{- if lt $heapMi 64.0 -}}
{{- fail (printf "memory.heap must be at least 64Mi (got %v)" .Values.memory.heap) -}}
{{- end -}}
{{- $heap := mulf $heapMi 1048576 -}}
{{- if gt $heap $usable -}}
{{- fail (printf "memory does not fit: heap %.0f B exceeds resources.limits.memory (%v) × memory.usableFraction (%v) = %.0f B; raise the limit or lower memory.heap" $heap $limit $fraction $usable) -}}
{{- end -}}
{{- $request := dig "requests" "memory" "" .Values.resources -}}
{{- if and $request (gt (include "proofline.bytes" $request | float64) $limitBytes) -}}
{{- fail (printf "resources.requests.memory (%v) exceeds resources.limits.memory (%v)" $request $limit) -}}
{{- end -}}
{{- $budget := 0.0 -}}
{{- if .Values.memory.budget -}}
{{- $budget = include "proofline.bytes" .Values.memory.budget | float64 -}}
{{- else -}}
{{- $budget = subf $usable $heap -}}
{{- end -}}
{{- if gt (addf $heap $budget) $usable -}}
{{- fail (printf "memory does not fit: heap %.0f B + budget %.0f B = %.0f B exceeds resources.limits.memory (%v = %.0f B) × memory.usableFraction (%v) = %.0f B; raise the limit or lower memory.heap / memory.budget" $heap $budget (addf $heap $budget) $limit $limitBytes $fraction $usable) -}}
{{- end -}}
{{- $minimum := include "proofline.bytes" .Values.memory.minimumBudget | float64 -}}
{{- if lt $budget $minimum -}}
{{- fail (printf "memory budget %.0f B is below memory.minimumBudget (%v): raise resources.limits.memory (%v) or lower memory.heap (%v)" $budget .Values.memory.minimumBudget $limit .Values.memory.heap) -}}
{{- end -}}
limitBytes: {{ printf "%.0f" $limitBytes | quote }}
usableBytes: {{ printf "%.0f" $usable | quote }}
heapBytes: {{ printf "%.0f" $heap | quote }}
heapMi: {{ printf "%.0f" $heapMi | quote }}
budgetBytes: {{ printf "%.0f" $budget | quote }}
{{- end -}}
