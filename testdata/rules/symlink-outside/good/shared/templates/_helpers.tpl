{{- define "shared.name" -}}{{ .Chart.Name }}{{- end -}}
