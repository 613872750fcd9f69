package suggest

import "testing"

func TestClosest(t *testing.T) {
	cands := []string{"overwriteDefaultWith", "useRegionSliderConfig", "hidden", "readonly"}
	for _, tc := range []struct{ in, want string }{
		{"overwriteDefaultwith", "overwriteDefaultWith"},
		{"overideDefaultWith", "overwriteDefaultWith"},
		{"useRegionSliderconfig", "useRegionSliderConfig"},
		{"hiden", "hidden"},
		{"completelyDifferent", ""},
		{"x", ""},
	} {
		if got := Closest(tc.in, cands); got != tc.want {
			t.Errorf("Closest(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestHint(t *testing.T) {
	if got := Hint("textarea", []string{"slider", "textArea"}); got != ` (did you mean "textArea"?)` {
		t.Errorf("Hint(textarea) = %q", got)
	}
	for _, name := range []string{"", "select", "true"} {
		if got := Hint(name, []string{"slider", "textArea", "password", "list"}); got != "" {
			t.Errorf("Hint(%q) = %q, want nothing", name, got)
		}
	}
}
