package lint

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"testing"

	k8syaml "k8s.io/apimachinery/pkg/util/yaml"
)

// FuzzCRDDocuments reads arbitrary files of crds/: no panic, every problem
// lies on a line of the file, and the documents are cut where Kubernetes'
// YAMLReader, which helm lint decodes them with, cuts them.
func FuzzCRDDocuments(f *testing.F) {
	f.Add([]byte("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n---\napiVersion: v1\nkind: ConfigMap\n"))
	f.Add([]byte("# comment\n---\n\n---\nkind: {{ .Values.kind }}\n--- # end\n"))
	f.Add([]byte("a: 1\n---x\nb: 2\n"))
	f.Add([]byte("{\"kind\": \"CustomResourceDefinition\"}\n{\"kind\": \"Secret\"}\n"))
	f.Add([]byte("\xef\xbb\xbf---\r\nkind: List\r\n---"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := bytes.Count(data, []byte("\n")) + 1
		for _, pr := range crdProblems(data) {
			if pr.msg == "" || pr.line < 1 || pr.line > lines {
				t.Fatalf("problem without a message or off the file (%d lines): %+v", lines, pr)
			}
		}
		if k8syaml.IsJSONBuffer(data[:min(len(data), 4096)]) {
			return
		}
		docs := yamlDocuments(data)
		r := k8syaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
		for i := 0; ; i++ {
			_, err := r.Read()
			if errors.Is(err, io.EOF) {
				if i != len(docs) {
					t.Fatalf("the reader cuts %d documents, yamlDocuments %d: %+v", i, len(docs), docs)
				}
				return
			}
			if i >= len(docs) {
				t.Fatalf("the reader cuts more than the %d documents of yamlDocuments: %+v", len(docs), docs)
			}
			if bad := err != nil; bad != docs[i].badSeparator {
				t.Fatalf("document %d: the reader fails: %v, yamlDocuments says %+v", i, err, docs[i])
			}
			if err != nil {
				return
			}
			if d := docs[i]; d.first < 1 || d.content < d.first || d.content > lines {
				t.Fatalf("document %d starts off the file (%d lines): %+v", i, lines, d)
			}
		}
	})
}
