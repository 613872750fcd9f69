{{/*
Name of the chart.
*/}}
{{- define "postgresql.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Fully qualified name of the release's objects: the release name when it already contains the
chart name, otherwise "<release>-<chart>". Truncated to 63 characters (DNS label limit).
*/}}
{{- define "postgresql.fullname" -}}
{{- if contains .Chart.Name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{/*
Chart name and version, as used by the helm.sh/chart label.
*/}}
{{- define "postgresql.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Common labels.
*/}}
{{- define "postgresql.labels" -}}
helm.sh/chart: {{ include "postgresql.chart" . }}
{{ include "postgresql.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/*
Selector labels.
*/}}
{{- define "postgresql.selectorLabels" -}}
app.kubernetes.io/name: {{ include "postgresql.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/*
Container image reference.
*/}}
{{- define "postgresql.image" -}}
{{- printf "%s:%s" .Values.image.repository (toString .Values.image.tag) }}
{{- end }}

{{/*
Container resources. The GPU limit is only set when it is not "0"; Kubernetes then requests the
same number of GPUs.
*/}}
{{- define "postgresql.resources" -}}
{{- $gpu := index .Values.resources.limits "nvidia.com/gpu" | default "0" | toString -}}
requests:
  cpu: {{ .Values.resources.requests.cpu | quote }}
  memory: {{ .Values.resources.requests.memory | quote }}
limits:
  cpu: {{ .Values.resources.limits.cpu | quote }}
  memory: {{ .Values.resources.limits.memory | quote }}
  {{- if ne $gpu "0" }}
  nvidia.com/gpu: {{ $gpu | quote }}
  {{- end }}
{{- end }}

{{/*
Git environment variables, set when git.enabled is true. The token comes from the Secret
rendered by secret-git.yaml and is only referenced when it is not empty.
*/}}
{{- define "postgresql.gitEnv" -}}
{{- if .Values.git.enabled }}
- name: GIT_USER_NAME
  value: {{ .Values.git.name | quote }}
- name: GIT_USER_MAIL
  value: {{ .Values.git.email | quote }}
- name: GIT_CREDENTIALS_CACHE_DURATION
  value: {{ .Values.git.cache | quote }}
- name: GIT_REPOSITORY
  value: {{ .Values.git.repository | quote }}
- name: GIT_BRANCH
  value: {{ .Values.git.branch | quote }}
{{- if .Values.git.token }}
- name: GIT_PERSONAL_ACCESS_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ include "postgresql.fullname" . }}-git
      key: token
{{- end }}
{{- end }}
{{- end }}
