{{- define "base.name" -}}{{ .Release.Name }}{{- end }}
