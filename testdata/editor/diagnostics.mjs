// What the editor tests share: showing the diagnostics a language service
// gave, and planting a mistake in a file's text.

import assert from 'node:assert/strict';

// show lists diagnostics one per line, as line:column [severity] message.
export function show(diags) {
  return diags.map((d) => `  ${d.range.start.line + 1}:${d.range.start.character + 1} [${d.severity}] ${d.message}`).join('\n');
}

// plant replaces the first capture group of re's first match in text, and
// returns the new text and the 0-based line of the replacement.
export function plant(text, re, replacement) {
  const m = new RegExp(re.source, re.flags.replace('d', '') + 'd').exec(text);
  assert.ok(m, `nothing matches ${re}`);
  const [from, to] = m.indices[1];
  return {
    text: text.slice(0, from) + replacement + text.slice(to),
    line: text.slice(0, from).split('\n').length - 1,
  };
}
