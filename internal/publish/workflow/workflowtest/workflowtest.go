// Package workflowtest reads what a GitHub Actions step leaves, as the
// runner reads it: the workflow commands of its log and the outputs of its
// GITHUB_OUTPUT file. Tests use it to check what catalogist writes.
package workflowtest

import (
	"fmt"
	"strings"
	"unicode"
)

// Command is a workflow command the runner carries out: its name, its
// properties and its message, unescaped. The runner's stop-commands and
// the line resuming after it are commands too: Name "stop-commands" with
// the token as Message, and Resume set on the line naming the token.
type Command struct {
	Name       string
	Properties map[string]string
	Message    string
	// Legacy is set for the ##[name]message form, found anywhere in a line.
	Legacy bool
	// Resume is set for the ::TOKEN:: line that ends a stop-commands.
	Resume bool
	// Line is the line of the log, counted from 1.
	Line int
}

// registered are the commands the runner knows (ActionCommandManager's
// command extensions); it compares names without regard to case.
var registered = []string{
	"stop-commands", "set-env", "set-output", "save-state", "add-mask", "add-path", "add-matcher",
	"remove-matcher", "debug", "warning", "error", "notice", "group", "endgroup", "echo",
}

// Commands reads a log as the runner's ActionCommandManager does, and
// returns the commands it carries out and the lines it shows as text:
//
//   - lines end at "\n", "\r" or "\r\n", as .NET's ReadLine splits them;
//   - a line is the command ::name props::message when, after its leading
//     white space, it starts with "::" and the name up to the next "::" (or
//     space) is a command the runner knows;
//   - otherwise a line holding "##[" anywhere is the legacy command
//     ##[name props]message, when its name is a command the runner knows;
//   - after ::stop-commands::TOKEN, nothing is carried out until a line
//     that is the command TOKEN, in either form (::TOKEN:: or ##[TOKEN]).
//
// A log read by Commands is one stream: stdout and stderr merged in the
// order written, as a step run with 2>&1 gives them to the runner.
func Commands(log string) (cmds []Command, plain []string, err error) {
	stopToken := ""
	for i, line := range splitLines(log) {
		names := registered
		if stopToken != "" {
			names = append(names[:len(names):len(names)], stopToken)
		}
		c, ok := parseV2(line, names)
		if !ok {
			c, ok = parseLegacy(line, names)
		}
		if !ok {
			plain = append(plain, line)
			continue
		}
		c.Line = i + 1
		switch {
		case stopToken != "":
			if !strings.EqualFold(c.Name, stopToken) {
				// Shown as text: the runner reads no command now.
				plain = append(plain, line)
				continue
			}
			c.Resume = true
			stopToken = ""
		case strings.EqualFold(c.Name, "stop-commands"):
			if c.Message == "" || isRegistered(c.Message, registered) || strings.EqualFold(c.Message, "pause-logging") {
				return nil, nil, fmt.Errorf("line %d: %q is not a token stop-commands takes", i+1, c.Message)
			}
			stopToken = c.Message
		}
		cmds = append(cmds, c)
	}
	return cmds, plain, nil
}

// splitLines splits a log as .NET's StreamReader.ReadLine does.
func splitLines(log string) []string {
	var lines []string
	for len(log) > 0 {
		i := strings.IndexAny(log, "\r\n")
		if i < 0 {
			lines = append(lines, log)
			break
		}
		lines = append(lines, log[:i])
		if log[i] == '\r' && i+1 < len(log) && log[i+1] == '\n' {
			i++
		}
		log = log[i+1:]
	}
	return lines
}

func isRegistered(name string, names []string) bool {
	for _, n := range names {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

// parseV2 is ActionCommand.TryParseV2.
func parseV2(line string, names []string) (Command, bool) {
	line = strings.TrimLeftFunc(line, unicode.IsSpace)
	if !strings.HasPrefix(line, "::") {
		return Command{}, false
	}
	end := strings.Index(line[2:], "::")
	if end < 0 {
		return Command{}, false
	}
	info := line[2 : 2+end]
	name, props, hasProps := strings.Cut(info, " ")
	if !isRegistered(name, names) {
		return Command{}, false
	}
	c := Command{Name: name, Properties: map[string]string{}}
	if hasProps && name != "" {
		for _, kv := range strings.Split(strings.TrimSpace(props), ",") {
			if k, v, ok := splitPair(kv); ok {
				c.Properties[k] = unescape(v, propertyEscapes)
			}
		}
	}
	c.Message = unescape(line[2+end+2:], dataEscapes)
	return c, true
}

// parseLegacy is ActionCommand.TryParse: ##[name props]message, found
// anywhere in the line.
func parseLegacy(line string, names []string) (Command, bool) {
	start := strings.Index(line, "##[")
	if start < 0 {
		return Command{}, false
	}
	end := strings.IndexByte(line[start:], ']')
	if end < 0 {
		return Command{}, false
	}
	info := line[start+3 : start+end]
	name, props, hasProps := strings.Cut(info, " ")
	if !isRegistered(name, names) {
		return Command{}, false
	}
	c := Command{Name: name, Properties: map[string]string{}, Legacy: true}
	if hasProps && name != "" {
		for _, kv := range strings.Split(props, ";") {
			if k, v, ok := splitPair(kv); ok {
				c.Properties[k] = unescape(v, legacyEscapes)
			}
		}
	}
	c.Message = unescape(line[start+end+1:], legacyEscapes)
	return c, true
}

// splitPair splits key=value as .NET's Split('=', 2, RemoveEmptyEntries)
// does, taking a pair only when both sides hold something.
func splitPair(kv string) (string, string, bool) {
	k, v, ok := strings.Cut(strings.TrimLeft(kv, "="), "=")
	v = strings.TrimLeft(v, "=")
	return k, v, ok && k != "" && v != ""
}

// The runner's unescaping, in its order: % last.
var (
	dataEscapes     = []string{"%0D", "\r", "%0A", "\n", "%25", "%"}
	propertyEscapes = []string{"%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%"}
	legacyEscapes   = []string{"%3B", ";", "%0D", "\r", "%0A", "\n", "%5D", "]", "%25", "%"}
)

// unescape replaces each escape in turn over the whole string, as the
// runner's successive string.Replace calls do.
func unescape(s string, escapes []string) string {
	for i := 0; i < len(escapes); i += 2 {
		s = strings.ReplaceAll(s, escapes[i], escapes[i+1])
	}
	return s
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
			return nil, fmt.Errorf("GITHUB_OUTPUT line %q is neither name=value nor name<<DELIMITER", lines[i])
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("output %s set twice", name)
		}
		out[name] = value
	}
	return out, nil
}
