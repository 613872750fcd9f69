package secret

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
)

func TestScrubForms(t *testing.T) {
	s := &Set{}
	s.Add("Hunter2", `pa"ss<w>rd`, "line one\n  line two of a key", "abc")
	for _, tc := range []struct{ text, gone string }{
		{"password is Hunter2.", "Hunter2"},
		{`"data": {"password": "` + base64.StdEncoding.EncodeToString([]byte("Hunter2")) + `"}`, base64.StdEncoding.EncodeToString([]byte("Hunter2"))},
		// Encoded inside a longer string, at each of the three alignments.
		{"basic: " + base64.StdEncoding.EncodeToString([]byte("admin:Hunter2")), "SHVudGVy"},
		{"basic: " + base64.StdEncoding.EncodeToString([]byte("ad:Hunter2!")), base64.StdEncoding.EncodeToString([]byte("ad:Hunter2!"))},
		{"basic: " + base64.StdEncoding.EncodeToString([]byte("a:Hunter2!!")), base64.StdEncoding.EncodeToString([]byte("a:Hunter2!!"))},
		{`{"v": "pa\"ss\u003cw\u003erd"}`, `pa\"ss\u003cw\u003erd`},
		{"url: https://db/?p=pa%22ss%3Cw%3Erd", "pa%22ss%3Cw%3Erd"},
		{"key: |\n  line one\n    line two of a key\n", "line two of a key"},
		{"https://example.org/index.yaml?access_token=t0k3n&ref=main", "t0k3n"},
	} {
		got := s.Scrub(tc.text)
		if strings.Contains(got, tc.gone) || !strings.Contains(got, Mask) {
			t.Errorf("Scrub(%q) = %q: %q is still there", tc.text, got, tc.gone)
		}
	}
	if got := s.Scrub("https://alice:s3cret@example.org/charts"); got != "https://example.org/charts" {
		t.Errorf("URL credentials: %q", got)
	}
	// Too short to be searched for; and text without a secret is left
	// alone.
	for _, text := range []string{"abc is three letters", "nothing secret here", "https://example.org/charts?ref=main"} {
		if got := s.Scrub(text); got != text {
			t.Errorf("Scrub(%q) = %q, want it unchanged", text, got)
		}
	}
	// Overlapping secrets are masked as one, with no part left over.
	o := &Set{}
	o.Add("xabc", "abcdef")
	if got := o.Scrub("<xabcdef>"); got != "<"+Mask+">" {
		t.Errorf("overlap: %q", got)
	}
}

func TestMask(t *testing.T) {
	s := &Set{}
	s.AddPath([]string{"mirrors", Each, "pin"})
	s.AddPath([]string{"registry.example.org/api-key"})
	s.AddContext(map[string]any{
		"git":      map[string]any{"token": "ghp_abc", "name": "Ada"},
		"s3":       map[string]any{"AWS_ACCESS_KEY_ID": "AKIA0001", "AWS_DEFAULT_REGION": "eu-west-1"},
		"s3_array": []any{map[string]any{"AWS_ACCESS_KEY_ID": "AKIA0002"}},
		"project":  map[string]any{"basic": "dTpw", "id": "u-ada"},
	})
	v := map[string]any{
		"mirrors":                      []any{map[string]any{"host": "a", "pin": "4711"}, map[string]any{"host": "b", "pin": ""}},
		"registry.example.org/api-key": "k-1",
		"db":                           map[string]any{"password": "pw", "user": "u", "port": 5432.0},
		"hook":                         "ghp_abc",
		"region":                       "eu-west-1",
		"repo":                         "https://bob:pw@git.example.org/x",
	}
	before, _ := json.Marshal(v)
	m := s.Mask(nil, v).(map[string]any)
	after, _ := json.Marshal(v)
	if string(before) != string(after) {
		t.Fatal("Mask wrote into its argument")
	}
	got, _ := json.Marshal(m)
	want := `{"db":{"password":"********","port":5432,"user":"u"},"hook":"********","mirrors":[{"host":"a","pin":"********"},{"host":"b","pin":""}],"region":"eu-west-1","registry.example.org/api-key":"********","repo":"https://git.example.org/x"}`
	if string(got) != want {
		t.Errorf("Mask:\n got %s\nwant %s", got, want)
	}
	// A value under a key is masked by the key's name and the paths below.
	if got := s.Mask([]string{"db", "password"}, "x"); got != Mask {
		t.Errorf("under a named key: %v", got)
	}
	if got := s.Mask([]string{"mirrors", "0"}, map[string]any{"pin": "1"}); got.(map[string]any)["pin"] != Mask {
		t.Errorf("under an item, by its index: %v", got)
	}
	for _, str := range []string{"ghp_abc", "AKIA0001", "AKIA0002", "dTpw"} {
		if !strings.Contains(strings.Join(s.Strings(), " "), str) {
			t.Errorf("the context's %q is not a secret: %v", str, s.Strings())
		}
	}
	if strings.Contains(strings.Join(s.Strings(), " "), "eu-west-1") {
		t.Errorf("the region is not a secret: %v", s.Strings())
	}
	var nilSet *Set
	if got := nilSet.Mask(nil, map[string]any{"token": "t"}).(map[string]any); got["token"] != Mask || nilSet.Scrub("t") != "t" {
		t.Errorf("a nil set: %v", got)
	}
}

func TestManifest(t *testing.T) {
	s := &Set{}
	s.Add("Hunter2", "S3SecretValue")
	in := `---
# Source: app/templates/secret.yaml
apiVersion: v1
kind: Secret
metadata:
  name: app
data:
  password: "SHVudGVyMg=="
  other: "b3RoZXI="
stringData:
  token: "plain-token"
  empty: ""

---
# Source: app/templates/cm.yaml
apiVersion: v1
kind: ConfigMap
metadata: {name: app}
data:
  dbPassword: letmein
  config.ini: |
    user=admin
    pass=Hunter2
  host: db.example.org
---
# Source: app/templates/deploy.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: app
spec:
  template:
    spec:
      containers:
        - name: app
          env:
            - name: AWS_SECRET_ACCESS_KEY
              value: "S3SecretValue"
            - name: API_TOKEN
              value: tok-42
            - name: MODE
              value: fast
`
	got := s.Manifest(in)
	for _, gone := range []string{"SHVudGVyMg==", "b3RoZXI=", "plain-token", "letmein", "Hunter2", "S3SecretValue", "tok-42"} {
		if strings.Contains(got, gone) {
			t.Errorf("%q is still there:\n%s", gone, got)
		}
	}
	for _, kept := range []string{"# Source: app/templates/secret.yaml", "# Source: app/templates/deploy.yaml", "empty: \"\"", "host: db.example.org", "value: fast", "user=admin", "---\n# Source: app/templates/cm.yaml"} {
		if !strings.Contains(got, kept) {
			t.Errorf("%q was lost:\n%s", kept, got)
		}
	}
	// A document without secrets keeps its bytes.
	plain := "---\n# Source: a/templates/svc.yaml\napiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec: {ports: [{port: 80}]}\n"
	if got := s.Manifest(plain); got != plain {
		t.Errorf("a document without secrets changed:\n%s", got)
	}
}

func TestRedactURLs(t *testing.T) {
	for in, want := range map[string]string{
		"fetching https://alice:s3cret@example.org/charts/index.yaml: 404": "fetching https://example.org/charts/index.yaml: 404",
		"https://alice:p@ss@host/x and http://bob@h":                       "https://host/x and http://h",
		"oci://u:t@registry.example.org/charts":                            "oci://registry.example.org/charts",
		"https://h/i.yaml?token=abc&x=1":                                   "https://h/i.yaml?token=" + Mask + "&x=1",
		"mail ada@example.org":                                             "mail ada@example.org",
	} {
		if got := RedactURLs(in); got != want {
			t.Errorf("RedactURLs(%q) = %q, want %q", in, got, want)
		}
	}
	if got := RedactURL("https://alice:s3cret@example.org/c?private_key=k&ref=1"); got != "https://example.org/c?private_key="+Mask+"&ref=1" {
		t.Errorf("RedactURL: %q", got)
	}
}

// FuzzScrub checks that no secret of at least MinScrubbed characters given
// to a Set is left in a scrubbed text, and that Scrub never panics.
func FuzzScrub(f *testing.F) {
	f.Add("password: Hunter2, basic: YWRtaW46SHVudGVyMg==", "Hunter2\x00admin")
	f.Add("https://alice:s3cret@host/x?token=abc", "s3cret")
	f.Add("****e abcde", "abcd\x00****e")
	f.Add("xabcdef", "xabc\x00abcdef")
	f.Fuzz(func(t *testing.T, text, secrets string) {
		s := &Set{}
		list := strings.Split(secrets, "\x00")
		s.Add(list...)
		got := s.Scrub(text)
		for _, sec := range list {
			if len(sec) >= MinScrubbed && strings.Trim(sec, "*") != "" && strings.Contains(got, sec) {
				t.Fatalf("Scrub(%q) with %q = %q holds %q", text, list, got, sec)
			}
		}
	})
}

// FuzzManifest checks that masking manifests never panics, keeps a stream
// without secrets as it is, and leaves none of the secrets given.
func FuzzManifest(f *testing.F) {
	f.Add("---\napiVersion: v1\nkind: Secret\ndata:\n  p: SHVudGVyMg==\nstringData: {t: Hunter2}\n", "Hunter2")
	f.Add("kind: ConfigMap\ndata:\n  dbPassword: x\n---\nkind: Pod\nspec:\n  containers:\n    - env: [{name: API_TOKEN, value: t}]\n", "")
	f.Add("a: &x [*x]\n---\n- [", "abcd")
	f.Fuzz(func(t *testing.T, manifest, secrets string) {
		s := &Set{}
		list := strings.Split(secrets, "\x00")
		s.Add(list...)
		got := s.Manifest(manifest)
		for _, sec := range list {
			if len(sec) >= MinScrubbed && strings.Trim(sec, "*") != "" && strings.Contains(got, sec) {
				t.Fatalf("Manifest(%q) with %q holds %q:\n%s", manifest, list, sec, got)
			}
		}
		if !strings.Contains(manifest, "kind") && !strings.Contains(manifest, "env") && !strings.Contains(manifest, "://") && secrets == "" && got != manifest {
			t.Fatalf("Manifest(%q) = %q, want it unchanged", manifest, got)
		}
	})
}

// FuzzRedactURLs checks that no URL keeps its user information and that
// redacting twice changes nothing more.
func FuzzRedactURLs(f *testing.F) {
	f.Add("fetching https://alice:s3cret@example.org/x?token=t: 404")
	f.Add("a://b://c@d e://f@g@h/i")
	f.Add("https://h/?a=1&password=p&b=2")
	f.Fuzz(func(t *testing.T, text string) {
		got := RedactURLs(text)
		if userinfo.MatchString(got) {
			t.Fatalf("RedactURLs(%q) = %q still holds user information", text, got)
		}
		if again := RedactURLs(got); again != got {
			t.Fatalf("RedactURLs is not stable: %q, then %q", got, again)
		}
		if u := RedactURL(text); strings.Contains(text, "://") && userinfo.MatchString(u) {
			t.Fatalf("RedactURL(%q) = %q still holds user information", text, u)
		}
	})
}
