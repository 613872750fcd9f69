// Checks the shared pattern vectors, patterns.json, against JavaScript's
// own RegExp, compiled as the platform's form compiles a schema's pattern:
// new RegExp(pattern), no flags. The Go tests of internal/base/jsregexp run
// the same vectors through catalogist's engine.
//
//   node --test testdata/form/

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const doc = JSON.parse(fs.readFileSync(path.join(here, 'patterns.json'), 'utf8'));

test('there are pattern vectors', function () {
  assert.ok(doc.cases.length > 0);
});

for (const c of doc.cases) {
  test('pattern ' + JSON.stringify(c.pattern), function () {
    let re;
    try {
      re = new RegExp(c.pattern);
    } catch (e) {
      assert.ok(c.error, 'JavaScript refuses it: ' + e.message);
      return;
    }
    assert.ok(!c.error, 'JavaScript compiles it');
    for (const s of c.matches) {
      assert.equal(re.test(s), true, JSON.stringify(s));
    }
    for (const s of c.rejects) {
      assert.equal(re.test(s), false, JSON.stringify(s));
    }
  });
}
