{{- define "web.name" -}}{{ .Release.Name }}-web{{- end }}
