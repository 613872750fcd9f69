{{/*
Name of the chart.
*/}}
{{- define "airflow.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Fully qualified name of the release's objects: the release name when it already contains the
chart name, otherwise "<release>-<chart>". Truncated to 63 characters (DNS label limit).
*/}}
{{- define "airflow.fullname" -}}
{{- if contains .Chart.Name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{/*
Chart name and version, as used by the helm.sh/chart label.
*/}}
{{- define "airflow.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Common labels.
*/}}
{{- define "airflow.labels" -}}
helm.sh/chart: {{ include "airflow.chart" . }}
{{ include "airflow.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/*
Selector labels.
*/}}
{{- define "airflow.selectorLabels" -}}
app.kubernetes.io/name: {{ include "airflow.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/*
Container image reference.
*/}}
{{- define "airflow.image" -}}
{{- printf "%s:%s" .Values.image.repository (toString .Values.image.tag) }}
{{- end }}

{{/*
Container resources. The GPU limit is only set when it is not "0"; Kubernetes then requests the
same number of GPUs.
*/}}
{{- define "airflow.resources" -}}
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
{{- define "airflow.gitEnv" -}}
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
      name: {{ include "airflow.fullname" . }}-git
      key: token
{{- end }}
{{- end }}
{{- end }}

{{/*
Environment variables from a multi-line text: one NAME=value per line; empty lines and lines
starting with "#" are skipped.
*/}}
{{- define "airflow.extraEnv" -}}
{{- range $line := splitList "\n" . }}
{{- $line = trim $line }}
{{- if and $line (not (hasPrefix "#" $line)) (contains "=" $line) }}
{{- $kv := regexSplit "=" $line 2 }}
- name: {{ index $kv 0 | trim | quote }}
  value: {{ index $kv 1 | trim | quote }}
{{- end }}
{{- end }}
{{- end }}
