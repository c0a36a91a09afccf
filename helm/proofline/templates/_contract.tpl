{{/*
The service's settled interface, in one place: port, paths and environment variable names that the
templates use. Spring property names (proofline.pipeline.*, ...) appear only in configmap.yaml.
Read with: {{- $c := include "proofline.contract" . | fromYaml }}
*/}}
{{- define "proofline.contract" -}}
port: 8080
dataDir: /var/lib/proofline
configDir: /config
paths:
  liveness: /actuator/health/liveness
  readiness: /actuator/health/readiness
  prometheus: /actuator/prometheus
  console: /console
  api: /api/v1
  openapi: /v3/api-docs
apiKeyHeader: X-API-Key
env:
  port: SERVER_PORT
  dataDir: PROOFLINE_DATA_DIR
  memoryBudget: PROOFLINE_MEMORY_BUDGET
  apiKeys: PROOFLINE_SECURITY_API_KEYS
  adminUser: PROOFLINE_SECURITY_ADMIN_USER
  adminPassword: PROOFLINE_SECURITY_ADMIN_PASSWORD
  metricsUser: PROOFLINE_SECURITY_METRICS_USER
  metricsPassword: PROOFLINE_SECURITY_METRICS_PASSWORD
  datasourceUrl: SPRING_DATASOURCE_URL
  datasourceUsername: SPRING_DATASOURCE_USERNAME
  datasourcePassword: SPRING_DATASOURCE_PASSWORD
  configLocation: SPRING_CONFIG_ADDITIONAL_LOCATION
  javaOptions: JAVA_TOOL_OPTIONS
secretKeys:
  apiKeys: api-keys
  adminUser: admin-user
  adminPassword: admin-password
  metricsUser: metrics-user
  metricsPassword: metrics-password
  databaseUsername: database-username
  databasePassword: database-password
{{- end -}}
