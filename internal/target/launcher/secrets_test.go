package launcher_test

import (
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/target/launcher"
)

// The secrets given on the command line are known before anything is
// computed, whether or not their flag parses, so that no message repeats
// them.
func TestInputSecrets(t *testing.T) {
	in := launcher.Inputs{
		Profile:   map[string]any{"git": map[string]any{"token": "ghp_abcd", "name": "Ada"}, "vault": map[string]any{"VAULT_TOKEN": "hvs.abcd"}},
		Set:       []string{"auth.password=Hunter2", "db.users[0].password=Sesame42", "broken.password=Open[Sesame", "replicas=3", "pin.password=4711"},
		SetString: []string{"api.token=tok-1234"},
		SetJSON:   []string{`auth.secret="json-secret"`, `{"registry": {"password": "reg-pass"}}`, `bad.password=not json`},
	}
	s := launcher.InputSecrets(in)
	for _, want := range []string{"Hunter2", "Sesame42", "Open[Sesame", "tok-1234", "json-secret", "reg-pass", "not json", "ghp_abcd", "hvs.abcd", "4711"} {
		if got := s.Scrub("value: " + want); strings.Contains(got, want) {
			t.Errorf("%q is not a secret: %q", want, got)
		}
	}
	for _, kept := range []string{"Ada", "3"} {
		if got := s.Scrub(kept); got != kept {
			t.Errorf("%q is taken for a secret", kept)
		}
	}
}

// FuzzInputSecrets checks that reading the command line's secrets never
// panics, and that a value given to a password key is never printed.
func FuzzInputSecrets(f *testing.F) {
	f.Add("auth.password", "Hunter2")
	f.Add("a[0].token", "x,y=z")
	f.Add("{", "}")
	f.Fuzz(func(t *testing.T, key, value string) {
		entry := key + ".password=" + value
		for _, in := range []launcher.Inputs{{Set: []string{entry}}, {SetString: []string{entry}}, {SetJSON: []string{entry}}} {
			s := launcher.InputSecrets(in)
			if len(value) >= 4 && !strings.ContainsAny(key, `=,[]{}\"'`) && !strings.ContainsAny(value, `,"'`) && strings.Trim(value, "*") != "" {
				if got := s.Scrub("refused: " + value); strings.Contains(got, value) {
					t.Fatalf("%+v: %q is printed: %q", in, value, got)
				}
			}
		}
	})
}
