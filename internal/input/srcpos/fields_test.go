package srcpos

import (
	"testing"
)

func TestReadFields(t *testing.T) {
	root, err := ParseYAML([]byte("name: web\nport: 80\n"))
	if err != nil {
		t.Fatal(err)
	}
	var name, port string
	err = ReadFields(root, "unknown setting %q", Field{Key: "name", Read: Text(&name)}, Field{Key: "port", Read: Text(&port)})
	if want := "2:7: port must be a string, not a number"; err == nil || err.Error() != want || name != "web" {
		t.Errorf("got %v, name %q; want %q", err, name, want)
	}

	root, _ = ParseYAML([]byte("name: web\nnam: x\n"))
	err = ReadFields(root, "unknown setting %q", Field{Key: "name", Read: Text(&name)}, Field{Key: "title", Read: Text(&name)})
	if want := `2:1: unknown setting "nam" (known: name, title); did you mean "name"?`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
}
