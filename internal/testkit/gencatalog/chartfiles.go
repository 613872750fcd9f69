package gencatalog

import (
	"fmt"
	"strings"
)

func (g *chartGen) chartYAML(version string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: v2\n")
	fmt.Fprintf(&b, "name: %s\n", g.name)
	fmt.Fprintf(&b, "description: %s\n", g.f.describe())
	fmt.Fprintf(&b, "type: application\n")
	fmt.Fprintf(&b, "version: %s\n", version)
	fmt.Fprintf(&b, "appVersion: %q\n", g.tags[0])
	fmt.Fprintf(&b, "home: %s\n", g.f.home)
	b.WriteString("keywords:\n")
	for _, k := range g.keywords() {
		fmt.Fprintf(&b, "  - %s\n", k)
	}
	b.WriteString("sources:\n")
	fmt.Fprintf(&b, "  - https://git.example.org/datalab/images/%s\n", g.f.tool)
	fmt.Fprintf(&b, "  - https://git.example.org/datalab/catalog-%s\n", g.f.catalog)
	b.WriteString("maintainers:\n")
	fmt.Fprintf(&b, "  - name: %s team\n    email: %s-maintainers@example.org\n", g.f.label, g.f.tool)
	b.WriteString("annotations:\n")
	fmt.Fprintf(&b, "  category: %s\n", g.f.catalog)
	return []byte(b.String())
}

func (g *chartGen) keywords() []string {
	k := []string{g.f.label}
	if g.f.stack != "" {
		k = append(k, g.f.stack)
	}
	if g.f.gpu {
		k = append(k, "GPU")
	}
	if g.f.spark {
		k = append(k, "Spark")
	}
	return append(k, g.f.catalog)
}

// readme lists the top-level option groups of the schema.
func (g *chartGen) readme(schema obj) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s\n\n", g.name, g.f.describe())
	fmt.Fprintf(&b, "Launches %s (`%s:%s`) in your namespace. Open the service from the\n", g.f.label, g.f.image(), g.tags[0])
	b.WriteString("launcher; the configuration step shows the options below, pre-filled from your\nprofile and from the region's settings.\n\n")
	b.WriteString("## Options\n\n| Key | Title | Description |\n|---|---|---|\n")
	props, _ := schema.get("properties")
	for _, p := range props.(obj) {
		node := p.v.(obj)
		title, _ := node.get("title")
		desc, _ := node.get("description")
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", p.k, title, desc)
	}
	fmt.Fprintf(&b, "\n## Resources\n\nRequests and limits are bounded by the region. Without a limit, the service may use\nall that is left on its node.\n\n## Links\n\n- Project: %s\n", g.f.home)
	return []byte(b.String())
}

func (g *chartGen) helpers() []byte {
	return []byte(strings.ReplaceAll(helpersTpl, "CHART", g.name))
}

func (g *chartGen) deployment() []byte {
	return []byte(strings.ReplaceAll(deploymentTpl, "CHART", g.name))
}

const helpersTpl = `{{/* Name of the chart, or nameOverride. */}}
{{- define "CHART.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Fully qualified app name, truncated to the 63 characters of a DNS label. */}}
{{- define "CHART.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* Chart label value. */}}
{{- define "CHART.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Common labels. */}}
{{- define "CHART.labels" -}}
helm.sh/chart: {{ include "CHART.chart" . }}
{{ include "CHART.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Selector labels. */}}
{{- define "CHART.selectorLabels" -}}
app.kubernetes.io/name: {{ include "CHART.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Image of the main container. */}}
{{- define "CHART.image" -}}
{{- if .Values.service.image.custom.enabled }}
{{- .Values.service.image.custom.version }}
{{- else }}
{{- .Values.service.image.version }}
{{- end }}
{{- end }}
`

const deploymentTpl = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "CHART.fullname" . }}
  labels:
    {{- include "CHART.labels" . | nindent 4 }}
spec:
  replicas: {{ if .Values.global.suspend }}0{{ else }}1{{ end }}
  selector:
    matchLabels:
      {{- include "CHART.selectorLabels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "CHART.selectorLabels" . | nindent 8 }}
    spec:
      {{- with .Values.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .Values.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .Values.service.image.custom.pullSecret }}
      imagePullSecrets:
        - name: {{ . }}
      {{- end }}
      containers:
        - name: {{ .Chart.Name }}
          image: {{ include "CHART.image" . | quote }}
          imagePullPolicy: {{ .Values.service.image.pullPolicy }}
          ports:
            - name: http
              containerPort: {{ .Values.networking.service.port }}
            {{- if .Values.networking.user.enabled }}
            - name: user
              containerPort: {{ .Values.networking.user.port }}
            {{- end }}
          env:
            - name: PASSWORD
              value: {{ .Values.security.password | quote }}
            {{- if .Values.git.enabled }}
            - name: GIT_USER_NAME
              value: {{ .Values.git.name | quote }}
            - name: GIT_USER_MAIL
              value: {{ .Values.git.email | quote }}
            - name: GIT_CREDENTIALS_CACHE_DURATION
              value: {{ .Values.git.cache | quote }}
            - name: GIT_PERSONAL_ACCESS_TOKEN
              value: {{ .Values.git.token | quote }}
            - name: GIT_REPOSITORY
              value: {{ .Values.git.repository | quote }}
            - name: GIT_BRANCH
              value: {{ .Values.git.branch | quote }}
            {{- end }}
            {{- if .Values.s3.enabled }}
            - name: AWS_ACCESS_KEY_ID
              value: {{ .Values.s3.accessKeyId | quote }}
            - name: AWS_SECRET_ACCESS_KEY
              value: {{ .Values.s3.secretAccessKey | quote }}
            - name: AWS_SESSION_TOKEN
              value: {{ .Values.s3.sessionToken | quote }}
            - name: AWS_S3_ENDPOINT
              value: {{ .Values.s3.endpoint | quote }}
            - name: AWS_DEFAULT_REGION
              value: {{ .Values.s3.defaultRegion | quote }}
            {{- end }}
            {{- if .Values.vault.enabled }}
            - name: VAULT_ADDR
              value: {{ .Values.vault.url | quote }}
            - name: VAULT_TOKEN
              value: {{ .Values.vault.token | quote }}
            - name: VAULT_MOUNT
              value: {{ .Values.vault.mount | quote }}
            - name: VAULT_TOP_DIR
              value: {{ .Values.vault.directory | quote }}
            {{- end }}
            {{- with .Values.init.personalInit }}
            - name: PERSONAL_INIT
              value: {{ . | quote }}
            - name: PERSONAL_INIT_ARGS
              value: {{ $.Values.init.personalInitArgs | quote }}
            {{- end }}
            {{- range .Values.extraEnvVars }}
            - name: {{ .name }}
              value: {{ .value | quote }}
            {{- end }}
          resources:
            {{- toYaml .Values.resources | nindent 12 }}
          startupProbe:
            tcpSocket:
              port: http
            {{- toYaml .Values.startupProbe | nindent 12 }}
          {{- if .Values.persistence.enabled }}
          volumeMounts:
            - name: data
              mountPath: {{ .Values.persistence.mountPath }}
          {{- end }}
      {{- if .Values.persistence.enabled }}
      volumes:
        - name: data
          emptyDir:
            sizeLimit: {{ .Values.persistence.size }}
      {{- end }}
`
