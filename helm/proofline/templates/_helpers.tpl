{{/* Chart name, truncated to the 63 characters a DNS label allows. */}}
{{- define "proofline.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Full name of the release's resources: release name, plus the chart name unless it already contains it. */}}
{{- define "proofline.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "proofline.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels every resource carries. */}}
{{- define "proofline.labels" -}}
helm.sh/chart: {{ include "proofline.chart" . }}
{{ include "proofline.selectorLabels" . }}
app.kubernetes.io/version: {{ .Values.image.tag | default .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: proofline
{{- end -}}

{{/* Labels that select the pods (immutable in a Deployment: never add to them). */}}
{{- define "proofline.selectorLabels" -}}
app.kubernetes.io/name: {{ include "proofline.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "proofline.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "proofline.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* The Secret holding API keys, admin and database credentials: the chart's own or security.existingSecret. */}}
{{- define "proofline.secretName" -}}
{{- default (include "proofline.fullname" .) .Values.security.existingSecret -}}
{{- end -}}

{{- define "proofline.image" -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) -}}
{{- end -}}

{{/* True ("true") when the job store is PostgreSQL rather than the embedded, single-instance H2. */}}
{{- define "proofline.externalDatabase" -}}
{{- if .Values.database.url -}}true{{- end -}}
{{- end -}}

{{/*
Checks that span several values; included by the Deployment so that an invalid combination fails
to render instead of producing pods that cannot work.
*/}}
{{- define "proofline.validate" -}}
{{- $replicas := int .Values.replicaCount -}}
{{- if lt $replicas 1 -}}
{{- fail (printf "replicaCount must be at least 1 (got %d)" $replicas) -}}
{{- end -}}
{{- if and (gt $replicas 1) (not (include "proofline.externalDatabase" .)) -}}
{{- fail (printf "replicaCount=%d requires PostgreSQL: set database.url (the embedded H2 job store is single-instance)" $replicas) -}}
{{- end -}}
{{- if and (gt $replicas 1) .Values.persistence.enabled (not .Values.persistence.existingClaim) (not (has "ReadWriteMany" .Values.persistence.accessModes)) -}}
{{- fail (printf "replicaCount=%d shares one data directory: persistence.accessModes must include ReadWriteMany (or use persistence.existingClaim, or persistence.enabled=false)" $replicas) -}}
{{- end -}}
{{- if and .Values.gpu.enabled (lt (int .Values.gpu.count) 1) -}}
{{- fail "gpu.enabled requires gpu.count >= 1" -}}
{{- end -}}
{{- end -}}
