package gencatalog

import (
	"errors"
	"fmt"
	"path/filepath"
)

// WriteSmall writes a catalog of n small charts into dir, laid out as
// Write lays out its charts: each has a schema of four options (a CPU
// slider with the platform's extension, an image, a switch and a
// password from the user's profile), a values.yaml, a Deployment and a
// README. It measures what grows with the number of charts rather than
// with their size.
func WriteSmall(dir string, n int) error {
	if n < 0 {
		return errors.New("gencatalog: negative chart count")
	}
	for i := range n {
		name := ChartName(i)
		for _, f := range smallChartFiles(name, i) {
			if err := writeFile(filepath.Join(dir, "charts", name, f.path), f.data); err != nil {
				return err
			}
		}
		if err := writeFile(filepath.Join(dir, "icons", name+".svg"), iconSVG(name)); err != nil {
			return err
		}
	}
	return writeFile(filepath.Join(dir, "catalog.yaml"), catalogYAML(n))
}

func smallChartFiles(name string, i int) []file {
	version := fmt.Sprintf("1.%d.%d", i/10%20, i%10)
	return []file{
		{"Chart.yaml", fmt.Appendf(nil, `apiVersion: v2
name: %s
version: %s
appVersion: "2.%d"
description: A small generated service (%s).
home: https://git.example.org/datalab/%s
`, name, version, i%7, name, name)},
		{"values.yaml", []byte(`image: ghcr.io/example/service:2.1
resources:
  cpu: 500m
debug: false
password: ""
`)},
		{"values.schema.json", fmt.Appendf(nil, `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "Small service %d",
  "type": "object",
  "properties": {
    "image": {"type": "string", "title": "Image", "default": "ghcr.io/example/service:2.1"},
    "resources": {
      "type": "object",
      "title": "Resources",
      "properties": {
        "cpu": {
          "type": "string",
          "title": "CPU",
          "default": "500m",
          "render": "slider",
          "sliderMin": 100,
          "sliderMax": %d,
          "sliderStep": 100,
          "sliderUnit": "m"
        }
      }
    },
    "debug": {"type": "boolean", "title": "Debug logging", "default": false},
    "password": {
      "type": "string",
      "title": "Password",
      "default": "",
      "x-platform": {"overwriteDefaultWith": "user.password"}
    }
  }
}
`, i, 4000+100*(i%40))},
		{"README.md", fmt.Appendf(nil, "# %s\n\nA small generated service.\n", name)},
		{"templates/deployment.yaml", []byte(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}
  labels:
    app.kubernetes.io/name: {{ .Chart.Name }}
spec:
  replicas: 1
  selector:
    matchLabels:
      app.kubernetes.io/instance: {{ .Release.Name }}
  template:
    metadata:
      labels:
        app.kubernetes.io/instance: {{ .Release.Name }}
    spec:
      containers:
        - name: main
          image: {{ .Values.image | quote }}
          env:
            - name: DEBUG
              value: {{ .Values.debug | quote }}
            - name: PASSWORD
              value: {{ .Values.password | quote }}
          resources:
            requests:
              cpu: {{ .Values.resources.cpu | quote }}
`)},
	}
}
