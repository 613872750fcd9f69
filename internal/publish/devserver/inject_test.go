package devserver

import (
	"strings"
	"testing"
)

func TestInject(t *testing.T) {
	const script = `<script src="/__catalogist/live.js" data-build="b-1" defer></script>`
	for _, tc := range []struct {
		name, page, want string
	}{
		{
			"connect-src added from default-src 'none'",
			`<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self'"><title>t</title></head><body>x</body></html>`,
			`<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self'; connect-src 'self'"><title>t</title>` + script + `</head><body>x</body></html>`,
		},
		{
			"default-src sources kept",
			`<head><meta http-equiv="content-security-policy" content="default-src https://api.example;"></head>`,
			`<head><meta http-equiv="content-security-policy" content="default-src https://api.example; connect-src https://api.example 'self'">` + script + `</head>`,
		},
		{
			"default-src 'self' allows it already",
			`<head><meta http-equiv="Content-Security-Policy" content="default-src 'self'"></head>`,
			`<head><meta http-equiv="Content-Security-Policy" content="default-src 'self'">` + script + `</head>`,
		},
		{
			"connect-src 'none' replaced",
			`<head><meta content="default-src 'none'; connect-src 'none'; img-src 'self'" http-equiv="Content-Security-Policy"></head>`,
			`<head><meta content="default-src 'none'; connect-src 'self'; img-src 'self'" http-equiv="Content-Security-Policy">` + script + `</head>`,
		},
		{
			"connect-src extended",
			`<head><meta http-equiv="Content-Security-Policy" content="connect-src https://x.example"/></head>`,
			`<head><meta http-equiv="Content-Security-Policy" content="connect-src https://x.example 'self'" />` + script + `</head>`,
		},
		{
			"connect-src 'self' already: the meta is left as it is",
			`<HEAD><META HTTP-EQUIV="Content-Security-Policy" CONTENT="default-src 'none';  connect-src   'self'"></HEAD>`,
			`<HEAD><META HTTP-EQUIV="Content-Security-Policy" CONTENT="default-src 'none';  connect-src   'self'">` + script + `</HEAD>`,
		},
		{
			"no policy",
			`<head><meta charset="utf-8"><meta name="generator" content="default-src 'none'"></head>`,
			`<head><meta charset="utf-8"><meta name="generator" content="default-src 'none'">` + script + `</head>`,
		},
		{
			"end tags in a script, a style and a comment are text",
			`<head><script>var s = "</head><body>";</script><style>/* </head> */</style><!-- </head> --></head><body></body>`,
			`<head><script>var s = "</head><body>";</script><style>/* </head> */</style><!-- </head> -->` + script + `</head><body></body>`,
		},
		{
			"head end tag omitted",
			`<!DOCTYPE html><title>t</title><body class="a">x</body>`,
			`<!DOCTYPE html><title>t</title>` + script + `<body class="a">x</body>`,
		},
		{
			"neither head end nor body",
			`just text`,
			`just text` + script,
		},
		{
			"a policy attribute with quotes and ampersands",
			`<head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src https://a.example/?x=1&amp;y=&quot;"></head>`,
			`<head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src https://a.example/?x=1&amp;y=&quot;; connect-src 'self'">` + script + `</head>`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(inject([]byte(tc.page), "b-1")); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
	if got := string(inject([]byte(`<head></head>`), `"><script>alert(1)</script>`)); strings.Contains(got, "<script>alert") {
		t.Errorf("the build name is not escaped: %s", got)
	}
}

func TestEditorFiles(t *testing.T) {
	for name, want := range map[string]bool{
		".values.schema.json.swp": true,
		".values.schema.json.swo": true,
		".values.schema.json.swx": true,
		"4913":                    true,
		"values.yaml~":            true,
		".#values.yaml":           true,
		"#values.yaml#":           true,
		"README.md.kate-swp":      true,
		"Chart.yaml___jb_tmp___":  true,
		".goutputstream-ABC123":   true,
		"values.schema.json":      false,
		"Chart.yaml":              false,
		".helmignore":             false,
		"logo.swf":                false,
		"templates":               false,
		"README.md":               false,
	} {
		if got := editorFile(name); got != want {
			t.Errorf("editorFile(%q) = %v, want %v", name, got, want)
		}
	}
}
