{{- define "lib.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
team: {{ (.Values.owner).team | default "data" | quote }}
{{- end }}
