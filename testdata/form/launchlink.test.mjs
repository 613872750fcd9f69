// Runs the launcher link vectors, launchlink.json, through the chart pages'
// script, templates/launchlink.js: the link is written byte for byte as Go
// writes it (internal/model/launchlink runs the same file), and the
// platform's reading of it, done here from the platform notes (section 10)
// alone, gives back exactly the changes.
//
//   node --test testdata/form/

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import * as ll from '../../templates/launchlink.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const doc = JSON.parse(fs.readFileSync(path.join(here, 'launchlink.json'), 'utf8'));

// parse reads a link as the platform's front end does: the path
// /launcher/{catalogId}/{chartName}; a parameter whose key holds no dot is
// the route's own; any other sets a value, its key split on the dots not
// preceded by %5C (either case) or a backslash, [n] a list index, a last
// empty piece dropped; its value true, false, null, - (undefined),
// parseFloat's number, or «string» after decodeURIComponent (the
// guillemets raw or percent-encoded).
function parse(link) {
  const [addr, query = ''] = link.split('#')[0].split('?');
  const at = addr.lastIndexOf('/launcher/');
  assert.ok(at >= 0, link + ': no /launcher/');
  const segs = addr.slice(at + '/launcher/'.length).split('/');
  assert.equal(segs.length, 2, link + ': path');
  const route = { base: addr.slice(0, at), catalogID: decodeURIComponent(segs[0]), chart: decodeURIComponent(segs[1]), params: {}, patch: [] };
  if (query === '') {
    return route;
  }
  for (const part of query.split('&')) {
    const kv = part.split('=');
    assert.equal(kv.length, 2, part + ': not one key=value');
    const [key, val] = kv;
    if (!key.includes('.')) {
      route.params[key] = decodeURIComponent(val);
      continue;
    }
    const p = [];
    for (const tok of splitKey(key)) {
      const m = /^([^[]*)((\[[0-9]+\])*)$/.exec(tok);
      assert.ok(m, tok + ': text after a list index');
      if (m[1] !== '' || m[2] === '') {
        p.push(m[1]);
      }
      for (const ix of m[2].match(/[0-9]+/g) || []) {
        p.push(parseInt(ix, 10));
      }
    }
    const e = { path: p };
    if (val === 'true' || val === 'false') {
      e.value = val === 'true';
    } else if (val === 'null') {
      e.value = null;
    } else if (val === '-') {
      e.remove = true;
    } else if (!Number.isNaN(parseFloat(val))) {
      e.value = parseFloat(val);
    } else {
      const m = /^«([^»]*)»$/.exec(decodeURIComponent(val));
      assert.ok(m, part + ': no «string»');
      e.value = m[1];
    }
    route.patch.push(e);
  }
  return route;
}

function splitKey(key) {
  const out = [];
  let cur = '';
  for (let i = 0; i < key.length; i++) {
    if (key.slice(i, i + 4).toUpperCase() === '%5C.') {
      cur += '.';
      i += 3;
    } else if (key.slice(i, i + 2) === '\\.') {
      cur += '.';
      i += 1;
    } else if (key[i] === '.') {
      out.push(cur);
      cur = '';
    } else {
      cur += key[i];
    }
  }
  if (cur !== '') {
    out.push(cur);
  }
  return out;
}

// apply is the platform's assignValueAtPath: a list made before an index,
// a mapping before a key (a list kept, where setting a key fails).
function apply(docValues, patch) {
  for (const e of patch) {
    let o = docValues;
    for (let i = 0; i < e.path.length - 1; i++) {
      const k = e.path[i];
      const next = e.path[i + 1];
      if (typeof next === 'number' ? !Array.isArray(o[k]) : !(o[k] instanceof Object)) {
        o[k] = typeof next === 'number' ? [] : {};
      }
      o = o[k];
      assert.ok(!(Array.isArray(o) && typeof next === 'string'), 'a key set under a list');
    }
    const last = e.path[e.path.length - 1];
    if (e.remove) {
      assert.ok(!Array.isArray(o), 'an item removed leaves a hole');
      delete o[last];
    } else {
      o[last] = e.value;
    }
  }
  return JSON.parse(JSON.stringify(docValues));
}

function checkRoute(route, target, link) {
  assert.equal(route.base, target.url.replace(/\/+$/, ''), link);
  assert.equal(route.catalogID, target.catalogID, link);
  assert.equal(route.chart, target.chart, link);
  const want = { autoLaunch: 'false' };
  if (target.version) {
    want.version = target.version;
  }
  assert.deepEqual(route.params, want, link);
}

test('the reasons are the script\'s', function () {
  assert.deepEqual(ll.REASONS, doc.reasons);
});

test('there are link vectors', function () {
  assert.ok(doc.cases.length >= 10);
});

for (const c of doc.cases) {
  test(c.name, function () {
    const { entries, left } = ll.changes(c.defaults, c.values, ll.secrets(c.passwords));
    const link = ll.link(c.target, entries);
    assert.equal(link, c.link);
    assert.deepEqual(left.map(function (o) { return o.key + ': ' + o.reason; }),
      c.left.map(function (o) { return o.key + ': ' + doc.reasons[o.reason]; }));
    // As a browser has it once set as an href: guillemets and ' encoded.
    for (const l of [link, new URL(link).href]) {
      const route = parse(l);
      checkRoute(route, c.target, l);
      assert.deepEqual(route.patch, c.changes, l);
      const applied = apply(JSON.parse(JSON.stringify(c.defaults)), route.patch);
      assert.deepEqual(applied, c.applied || c.values, l);
    }
  });
}

// Random edits of random documents: the platform reads every link, and
// what it reads, applied to the defaults, gives the edited values wherever
// nothing was left out. A seeded generator keeps failures repeatable.
test('random edits round-trip', function () {
  let seed = 20261130;
  function rand(n) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  }
  const leaves = ['x', 'a.b c', '', '1', 3.5, -2, 1e-9, 2e21, true, false, null, '«q', '%5C.', 'é\n', [], {}];
  const keys = ['k', 'a.b', 'nvidia.com/gpu', 'x_y', 'z-1', 'é', 'a b'];
  function gen(depth) {
    const r = rand(depth > 2 ? 2 : 4);
    if (r === 2) {
      const o = {};
      for (let i = rand(4); i > 0; i--) { o[keys[rand(keys.length)] + depth] = gen(depth + 1); }
      return o;
    }
    if (r === 3) {
      const a = [];
      for (let i = rand(3); i > 0; i--) { a.push(gen(depth + 1)); }
      return a;
    }
    return JSON.parse(JSON.stringify(leaves[rand(leaves.length)]));
  }
  function edit(v, depth) {
    if (Array.isArray(v)) {
      v.forEach(function (c, i) { if (rand(3) === 0) { v[i] = edit(c, depth + 1); } });
      if (rand(3) === 0) { v.push(gen(depth + 1)); }
      return v;
    }
    if (v !== null && typeof v === 'object') {
      for (const k of Object.keys(v)) { if (rand(3) === 0) { v[k] = edit(v[k], depth + 1); } }
      if (rand(4) === 0) { v[keys[rand(keys.length)] + depth] = gen(depth + 1); }
      return v;
    }
    return gen(depth);
  }
  const target = { url: 'https://datalab.example.org', catalogID: 'ide', chart: 'c', version: '1.0.0' };
  let carried = 0;
  for (let n = 0; n < 3000; n++) {
    const defaults = { g: gen(1), h: { k: gen(2) } };
    const values = edit(JSON.parse(JSON.stringify(defaults)), 0);
    const { entries, left } = ll.changes(defaults, values, ll.secrets([]));
    const link = ll.link(target, entries);
    const route = parse(new URL(link).href);
    checkRoute(route, target, link);
    assert.equal(route.patch.length, entries.length, link);
    const applied = apply(JSON.parse(JSON.stringify(defaults)), route.patch);
    if (left.length === 0) {
      assert.deepEqual(applied, JSON.parse(JSON.stringify(values)), link);
      carried++;
    }
  }
  assert.ok(carried > 500, carried + ' of 3000 edits carried whole');
});
