{{- define "good.name" -}}{{ .Release.Name }}-good{{- end }}
