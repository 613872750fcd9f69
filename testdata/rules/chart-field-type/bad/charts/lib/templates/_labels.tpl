{{- define "lib.labels" -}}
app: {{ .Chart.Name }}
{{- end }}
