// Runs the edit vectors (*/edits.json) through the chart pages' script,
// templates/formstate.js, with the form model `catalogist form` prints for
// each vector: the same files schema's TestEditVectors runs through Go.
//
//   node --test testdata/form/
//
// The catalogist binary is $CATALOGIST_BIN, else built once with go build.
// $CATALOGIST_FORM_VECTORS names another directory of vectors: make
// check-corpus runs testdata/form-corpus/, whose case.yaml names a chart
// of the corpus catalog $CATALOGIST_CORPUS.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import * as fst from '../../templates/formstate.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');

function binary() {
  if (process.env.CATALOGIST_BIN) {
    return path.resolve(process.env.CATALOGIST_BIN);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalogist-edits-'));
  const bin = path.join(dir, 'catalogist');
  execFileSync('go', ['build', '-o', bin, './cmd/catalogist'], { cwd: repo, stdio: 'inherit' });
  return bin;
}

// readCase reads the few keys of case.yaml the command needs (flat
// "key: value" lines).
function readCase(dir) {
  const out = {};
  for (const line of fs.readFileSync(path.join(dir, 'case.yaml'), 'utf8').split('\n')) {
    const m = /^(platform|extensionKey|schema):\s*(.*?)\s*$/.exec(line);
    if (m) {
      out[m[1]] = m[2].replace(/^"(.*)"$/, '$1');
    }
  }
  return out;
}

function model(bin, dir) {
  const c = readCase(dir);
  const args = ['form', '--format', 'json', '--show-secrets',
    '--platform', c.platform || 'onyxia', '--extension-key', c.extensionKey || 'x-onyxia',
    '--profile', path.join(dir, 'context.yaml')];
  if (fs.existsSync(path.join(dir, 'region.yaml'))) {
    args.push('--region', path.join(dir, 'region.yaml'));
  }
  if (fs.existsSync(path.join(dir, 'registry'))) {
    args.push('--schema-registry', path.join(dir, 'registry'));
  }
  if (c.schema) {
    assert.ok(process.env.CATALOGIST_CORPUS, 'CATALOGIST_CORPUS is not set: the vectors of charts of the corpus run with make check-corpus');
    args.push(path.join(process.env.CATALOGIST_CORPUS, c.schema));
  } else {
    args.push(path.join(dir, 'values.schema.json'));
  }
  let out;
  try {
    out = execFileSync(bin, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  } catch (e) {
    // Exit 1: the form does not open; the model is still printed.
    if (e.status !== 1) {
      throw e;
    }
    out = e.stdout;
  }
  return JSON.parse(out);
}

const vectorsDir = process.env.CATALOGIST_FORM_VECTORS ? path.resolve(process.env.CATALOGIST_FORM_VECTORS) : here;
const vectors = fs.readdirSync(vectorsDir).filter(function (name) {
  return fs.existsSync(path.join(vectorsDir, name, 'edits.json'));
});

test('there are edit vectors', function () {
  assert.ok(vectors.length > 0);
});

let bin;
for (const name of vectors) {
  test(name, function () {
    bin = bin || binary();
    const dir = path.join(vectorsDir, name);
    const session = JSON.parse(fs.readFileSync(path.join(dir, 'edits.json'), 'utf8'));
    const m = model(bin, dir);
    const t = fst.tree(m);
    const defaults = fst.clone(m.values);
    const values = fst.clone(m.values);
    session.steps.forEach(function (st, i) {
      const where = 'step ' + i + ' (' + st.do + ' ' + JSON.stringify(st.key) + ')';
      switch (st.do) {
        case '':
          break;
        case 'set':
          assert.ok(fst.setAt(values, st.key, fst.clone(st.value)), where + ': nothing at the key');
          break;
        case 'add': {
          const items = t.option(fst.itemsKey(st.key));
          assert.ok(items, where + ': no items option');
          fst.lookup(values, st.key)[0].push(fst.clone(items.value));
          break;
        }
        case 'remove':
          fst.lookup(values, st.key)[0].splice(st.index, 1);
          break;
        default:
          assert.fail(where + ': unknown edit');
      }
      assert.deepEqual(fst.hiddenKeys(t, values), st.hidden || [], where + ': hidden');
      assert.deepEqual(fst.check(t, m, values), st.errors || {}, where + ': errors');
      assert.deepEqual(fst.changes(defaults, values), st.changes, where + ': changes');
      if (st.values) {
        assert.deepEqual(values, st.values, where + ': values');
      }
    });
  });
}

// The full document a visitor of a chart page takes away leaves out what
// the profile fills while it holds the page's default (given to launch it
// would overwrite the profile's), keeps what the region pre-filled and
// what the visitor set, and drops an object it empties.
test('the full document leaves the profile\'s values to the profile', function () {
  bin = bin || binary();
  const dir = path.join(here, 'edit-seed-git-resources');
  const empty = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'catalogist-profile-')), 'profile.yaml');
  fs.writeFileSync(empty, '{}\n');
  const m = JSON.parse(execFileSync(bin, ['form', '--format', 'json', '--show-secrets', '--platform', 'catalogist', '--extension-key', 'x-platform',
    '--profile', empty, '--region', path.join(dir, 'region.yaml'), path.join(dir, 'values.schema.json')], { encoding: 'utf8' }));
  // What the page's model names as the launch context's (site's prefilled).
  const keys = [['git', 'name'], ['git', 'email'], ['git', 'cache'], ['git', 'token']];
  const defaults = fst.clone(m.values);
  const values = fst.clone(m.values);
  let doc = fst.fullDocument(defaults, values, keys);
  assert.deepEqual(doc.git, { branch: '', enabled: true, repository: '' });
  assert.deepEqual(doc.resources, m.values.resources, 'the region\'s pre-fills stay');
  fst.setAt(values, ['git', 'name'], 'Ada Lovelace');
  doc = fst.fullDocument(defaults, values, keys);
  assert.equal(doc.git.name, 'Ada Lovelace', 'a value the visitor set stays');
  assert.deepEqual(values.git.email, '', 'the values themselves are left alone');
  // An object left empty goes with its values; one empty from the start stays.
  assert.deepEqual(fst.fullDocument({ a: { b: '' }, c: {} }, { a: { b: '' }, c: {} }, [['a', 'b']]), { c: {} });
});

test('YAML output reads back as the values', function () {
  const v = { a: { 'nvidia.com/gpu': '1', list: [{ x: 1, y: ['on', 'no'] }, [], {}], s: 'two\nlines', n: null, t: true, e: '' }, b: 'plain', c: '100m' };
  const text = fst.toYAML(v);
  // Every string that YAML could read as something else is quoted.
  assert.match(text, /- "on"/);
  assert.match(text, /"100m"/);
  assert.match(text, /s: "two\\nlines"/);
  assert.equal(fst.toYAML({}), '{}\n');
});

// Random edits of every vector's model, with values of any type where the
// form expects one: the script never throws, and its output stays a
// document of plain values. A seeded generator keeps failures repeatable.
test('random edits never break the script', function () {
  bin = bin || binary();
  let seed = 20261124;
  function rand(n) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  }
  const odd = [null, true, false, 0, -1, 1.5, 1e300, '', 'x', '4Gi', '9000m', ' 12', '1_0Gi', [], [1, 'a'], {}, { a: null }, '\u2028', '<script>'];
  for (const name of vectors) {
    const m = model(bin, path.join(vectorsDir, name));
    const t = fst.tree(m);
    const defaults = fst.clone(m.values);
    const values = fst.clone(m.values);
    const keys = m.options.filter(function (o) { return o.key.indexOf(fst.ITEMS) < 0; }).map(function (o) { return o.key; });
    for (let i = 0; i < 400; i++) {
      const key = keys[rand(keys.length)];
      fst.setAt(values, key, fst.clone(odd[rand(odd.length)]));
      const hidden = fst.hiddenKeys(t, values);
      assert.ok(Array.isArray(hidden));
      const errors = fst.check(t, m, values);
      for (const k of Object.keys(errors)) {
        assert.equal(typeof errors[k], 'string', name + ': ' + k);
      }
      const yaml = fst.toYAML(fst.changes(defaults, values));
      assert.equal(typeof yaml, 'string');
    }
  }
});
