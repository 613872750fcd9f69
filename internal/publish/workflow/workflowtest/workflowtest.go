// Package workflowtest reads what a GitHub Actions step leaves, as the
// runner reads it: the workflow commands of its log and the outputs of its
// GITHUB_OUTPUT file. Tests use it to check what catalogist writes.
package workflowtest

import (
	"fmt"
	"strings"
)

// Command is a workflow command of a log: ::name k=v,k=v::message, its
// properties and message unescaped.
type Command struct {
	Name       string
	Properties map[string]string
	Message    string
}

// Commands splits a log into its workflow commands and its other lines.
func Commands(log string) (cmds []Command, plain []string, err error) {
	for line := range strings.Lines(log) {
		line = strings.TrimSuffix(line, "\n")
		if !strings.HasPrefix(line, "::") {
			plain = append(plain, line)
			continue
		}
		head, msg, ok := strings.Cut(line[2:], "::")
		if !ok {
			return nil, nil, fmt.Errorf("command without a message separator: %q", line)
		}
		c := Command{Properties: map[string]string{}, Message: unescape(msg, false)}
		name, props, _ := strings.Cut(head, " ")
		c.Name = name
		if props != "" {
			for _, kv := range strings.Split(props, ",") {
				k, v, ok := strings.Cut(kv, "=")
				if !ok {
					return nil, nil, fmt.Errorf("property without = in %q", line)
				}
				c.Properties[k] = unescape(v, true)
			}
		}
		cmds = append(cmds, c)
	}
	return cmds, plain, nil
}

// unescape undoes the escaping of a command: a property escapes %, CR,
// LF, : and ,; a message %, CR and LF.
func unescape(s string, property bool) string {
	pairs := []string{"%0D", "\r", "%0A", "\n"}
	if property {
		pairs = append(pairs, "%3A", ":", "%2C", ",")
	}
	return strings.NewReplacer(append(pairs, "%25", "%")...).Replace(s)
}

// Outputs reads a GITHUB_OUTPUT file: name=value lines, or name<<DELIMITER,
// the value's lines, then DELIMITER. An output set twice is an error.
func Outputs(file string) (map[string]string, error) {
	out := map[string]string{}
	lines := strings.Split(strings.TrimSuffix(file, "\n"), "\n")
	if file == "" {
		lines = nil
	}
	for i := 0; i < len(lines); i++ {
		var name, value string
		if n, delim, ok := strings.Cut(lines[i], "<<"); ok {
			var vs []string
			for i++; i < len(lines) && lines[i] != delim; i++ {
				vs = append(vs, lines[i])
			}
			if i == len(lines) {
				return nil, fmt.Errorf("output %s has no closing delimiter %s", n, delim)
			}
			name, value = n, strings.Join(vs, "\n")
		} else if n, v, ok := strings.Cut(lines[i], "="); ok {
			name, value = n, v
		} else {
			return nil, fmt.Errorf("GITHUB_OUTPUT line %q is neither name=value nor name<<delimiter", lines[i])
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("output %s set twice", name)
		}
		out[name] = value
	}
	return out, nil
}
