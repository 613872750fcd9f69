{{- define "lib.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
team: {{ .Values.owner.team | quote }}
{{- end }}
