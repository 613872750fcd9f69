package catalog

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseArtifactHub(t *testing.T) {
	cfg, err := ParseConfig([]byte(`
name: ide
artifacthub:
  repositoryID: 5c1e3f0a-8d4b-4c59-9b43-3f3bd1a6e0a2
  owners:
    - name: jane
      email: jane@example.org
    - email: ops@example.org
`))
	if err != nil {
		t.Fatal(err)
	}
	ah := cfg.ArtifactHub
	if ah == nil || ah.RepositoryID != "5c1e3f0a-8d4b-4c59-9b43-3f3bd1a6e0a2" || ah.Node == nil {
		t.Fatalf("ArtifactHub = %+v", ah)
	}
	if want := []Owner{{"jane", "jane@example.org"}, {"", "ops@example.org"}}; !reflect.DeepEqual(ah.Owners, want) {
		t.Errorf("Owners = %+v, want %+v", ah.Owners, want)
	}
	for _, doc := range []string{"name: x\n", "artifacthub:\n  # repositoryID: later\n"} {
		cfg, err := ParseConfig([]byte(doc))
		if err != nil || cfg.ArtifactHub != nil {
			t.Errorf("%q: ArtifactHub = %+v, %v; want none", doc, cfg.ArtifactHub, err)
		}
	}
	owners, err := ParseConfig([]byte("artifacthub: {owners: [{email: a@b.io}]}\n"))
	if err != nil || owners.ArtifactHub.RepositoryID != "" || len(owners.ArtifactHub.Owners) != 1 {
		t.Errorf("owners alone: %+v, %v", owners.ArtifactHub, err)
	}
}

// Every bad shape of the section is refused at its position, saying what
// to write.
func TestParseArtifactHubErrors(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		pos        string
		want       []string
	}{
		{"not a mapping", "artifacthub: 5c1e3f0a\n", "1:14", []string{"artifacthub must be a mapping with repositoryID and owners"}},
		{"empty mapping", "artifacthub: {}\n", "1:14", []string{"artifacthub must be a mapping"}},
		{"unknown key", "artifacthub:\n  repositoryId: x\n", "2:3", []string{`unknown artifacthub setting "repositoryId"`, `did you mean "repositoryID"?`}},
		{"id not a uuid", "artifacthub:\n  repositoryID: my-repo\n", "2:17", []string{`artifacthub.repositoryID is "my-repo", not a repository ID`, "control panel"}},
		{"id a number", "artifacthub:\n  repositoryID: 12\n", "2:17", []string{"artifacthub.repositoryID is 12"}},
		{"owners not a list", "artifacthub:\n  owners: {name: jane}\n", "2:11", []string{"artifacthub.owners must be a list"}},
		{"owner a string", "artifacthub:\n  owners: [jane@example.org]\n", "2:12", []string{"an artifacthub.owners entry is a string", "email: jane@example.org"}},
		{"owner without email", "artifacthub:\n  owners:\n    - name: jane\n", "3:7", []string{"has no email", "add email:"}},
		{"owner bad email", "artifacthub:\n  owners:\n    - {name: jane, email: jane}\n", "3:27", []string{`an owner's email is "jane"`}},
		{"owner unknown key", "artifacthub:\n  owners:\n    - {mail: jane@example.org}\n", "3:8", []string{`unknown key "mail" in an artifacthub.owners entry`, `did you mean "email"?`}},
		{"owner name not a string", "artifacthub:\n  owners:\n    - {name: [j], email: j@example.org}\n", "3:14", []string{"an owner's name must be a string"}},
		{"section misspelt", "artifacthb: {}\n", "1:1", []string{`unknown setting "artifacthb"`, `did you mean "artifacthub"?`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseConfig([]byte(tc.yaml))
			if err == nil {
				t.Fatalf("accepted:\n%s", tc.yaml)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, tc.pos+": ") {
				t.Errorf("error %q is not at %s", msg, tc.pos)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
		})
	}
}
