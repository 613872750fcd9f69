{{- define "tools.labels" -}}
app: {{ .Chart.Name }}
{{- end }}
