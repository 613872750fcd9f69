package srcpos

import "testing"

func TestShow(t *testing.T) {
	root, err := ParseJSON([]byte(`{"s": "a\"b", "n": 3.50, "b": true, "z": null, "l": [], "o": {}}`))
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{"s": `"a\"b"`, "n": "3.50", "b": "true", "z": "null", "l": "an array", "o": "an object"} {
		if got := root.Get(key).Show(); got != want {
			t.Errorf("Show(%s) = %s, want %s", key, got, want)
		}
	}
}
