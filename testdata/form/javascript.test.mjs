// Judges the form vectors' models with JavaScript's own parts, the ones the
// platform's form uses: its RegExp for pattern (new RegExp(pattern), no
// flags) and the yaml library 2.x for values.yaml (YAML 1.2, core schema).
// For every vector, `catalogist form` must agree with them:
// - a string value the form holds matches its option's pattern, and a
//   pattern JavaScript cannot compile on a string option with a value
//   means the form does not open;
// - a value that comes from values.yaml is what the yaml library reads;
// - a list filled from the context is a list, never null;
// - a chart without values.schema.json sends values.yaml as the yaml
//   library reads it, without the keys that hold an empty list.
//
//   CATALOGIST_BIN=bin/catalogist node --test testdata/form/
//
// The yaml library comes from $CATALOGIST_NODE_MODULES (. /tmp/envs.sh or
// scripts/install-tools.sh --print node-modules).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');

assert.ok(process.env.CATALOGIST_NODE_MODULES, 'CATALOGIST_NODE_MODULES is not set: scripts/install-tools.sh --print node-modules names it');
const YAML = createRequire(path.join(process.env.CATALOGIST_NODE_MODULES, 'x.js'))('yaml');

let bin;
function binary() {
  if (bin) {
    return bin;
  }
  if (process.env.CATALOGIST_BIN) {
    bin = path.resolve(process.env.CATALOGIST_BIN);
    return bin;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalogist-js-'));
  bin = path.join(dir, 'catalogist');
  execFileSync('go', ['build', '-o', bin, './cmd/catalogist'], { cwd: repo, stdio: 'inherit' });
  return bin;
}

function form(target, dir) {
  const args = ['form', '--format', 'json', '--show-secrets', '--platform', 'onyxia', '--extension-key', 'x-onyxia'];
  if (fs.existsSync(path.join(dir, 'context.yaml'))) {
    args.push('--profile', path.join(dir, 'context.yaml'));
  }
  if (fs.existsSync(path.join(dir, 'region.yaml'))) {
    args.push('--region', path.join(dir, 'region.yaml'));
  }
  if (fs.existsSync(path.join(dir, 'registry'))) {
    args.push('--schema-registry', path.join(dir, 'registry'));
  }
  args.push(target);
  try {
    return JSON.parse(execFileSync(binary(), args, { encoding: 'utf8', maxBuffer: 64 << 20 }));
  } catch (e) {
    if (e.status !== 1) {
      throw e;
    }
    return JSON.parse(e.stdout);
  }
}

// schemaAt walks a schema by an option's key; '[]' is an array's items.
function schemaAt(schema, key) {
  let n = schema;
  for (const k of key) {
    if (!n || typeof n !== 'object') {
      return undefined;
    }
    n = k === '[]' ? n.items : (n.properties || {})[k];
  }
  return n;
}

function valueAt(v, key) {
  for (const k of key) {
    if (v === null || typeof v !== 'object' || !(k in v)) {
      return undefined;
    }
    v = v[k];
  }
  return v;
}

function withoutEmptyLists(v) {
  if (Array.isArray(v)) {
    return v.map(withoutEmptyLists);
  }
  if (v !== null && typeof v === 'object') {
    const out = {};
    for (const [k, c] of Object.entries(v)) {
      if (Array.isArray(c) && c.length === 0) {
        continue;
      }
      out[k] = withoutEmptyLists(c);
    }
    return out;
  }
  return v;
}

function readYAML(file) {
  // What the form holds is sent as JSON.
  return JSON.parse(JSON.stringify(YAML.parse(fs.readFileSync(file, 'utf8')) ?? {}));
}

const vectors = fs.readdirSync(here).filter(function (name) {
  return fs.existsSync(path.join(here, name, 'want.json')) && !/^\s*schema:/m.test(fs.readFileSync(path.join(here, name, 'case.yaml'), 'utf8'));
});

test('there are vectors', function () {
  assert.ok(vectors.length > 0);
});

for (const name of vectors) {
  test(name, function () {
    const dir = path.join(here, name);
    const schemaFile = path.join(dir, 'values.schema.json');
    const valuesFile = path.join(dir, 'values.yaml');
    if (!fs.existsSync(schemaFile)) {
      // A chart of its own: Chart.yaml and the vector's values.yaml.
      const chart = fs.mkdtempSync(path.join(os.tmpdir(), 'catalogist-schemaless-'));
      fs.writeFileSync(path.join(chart, 'Chart.yaml'), 'apiVersion: v2\nname: demo\nversion: 1.0.0\n');
      if (fs.existsSync(valuesFile)) {
        fs.copyFileSync(valuesFile, path.join(chart, 'values.yaml'));
      }
      const m = form(chart, dir);
      assert.equal(m.schemaless, true);
      assert.equal(m.opens, true);
      assert.deepEqual(m.values, fs.existsSync(valuesFile) ? withoutEmptyLists(readYAML(valuesFile)) : {});
      return;
    }
    const m = form(schemaFile, dir);
    const schema = JSON.parse(fs.readFileSync(schemaFile, 'utf8'));
    const yaml = fs.existsSync(valuesFile) ? readYAML(valuesFile) : {};
    let throws = false;
    for (const o of m.options) {
      if (o.key.includes('[]')) {
        continue;
      }
      const node = schemaAt(schema, o.key);
      if (o.source === 'values.yaml') {
        assert.deepEqual(o.value, valueAt(yaml, o.key), 'option ' + o.key.join('/') + ' from values.yaml');
      }
      if (o.source === 'context' && o.widget === 'list') {
        assert.ok(Array.isArray(o.value), 'option ' + o.key.join('/') + ' is a list from the context: ' + JSON.stringify(o.value));
      }
      if (!node || typeof node.pattern !== 'string' || node.type !== 'string') {
        continue;
      }
      let re;
      try {
        re = new RegExp(node.pattern);
      } catch (e) {
        throws = throws || o.defined || node.default !== undefined;
        continue;
      }
      if (o.defined && typeof o.value === 'string') {
        assert.ok(re.test(o.value), 'option ' + o.key.join('/') + ': ' + JSON.stringify(o.value) + ' does not match ' + node.pattern);
      }
    }
    if (throws) {
      assert.equal(m.opens, false, 'a pattern JavaScript cannot compile is evaluated, so the form does not open');
    }
  });
}
