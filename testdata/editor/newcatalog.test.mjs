// Opens a catalog `catalogist new catalog` just wrote, and a chart `new
// chart` added, in the language services the editors run, configured only
// by what the catalog carries: VS Code's JSON language service
// (vscode-json-languageservice) and yaml-language-server with
// .vscode/settings.json's json.schemas and yaml.schemas, as VS Code's
// extensions read them (a "./" path is relative to the workspace folder),
// and yaml-language-server with catalog.yaml's first-line modeline alone,
// as another editor reads it. Nothing is published: every schema must come
// from the catalog's files, and any other request fails.
//
//   node --test testdata/editor/newcatalog.test.mjs
//
// The binary is $CATALOGIST_BIN, else built once with go build; the npm
// packages are those of tools/browser, in $CATALOGIST_NODE_MODULES, else
// installed by scripts/install-tools.sh.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { plant, show } from './diagnostics.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const nodeModules = process.env.CATALOGIST_NODE_MODULES ||
  execFileSync('bash', [path.join(repo, 'scripts', 'install-tools.sh'), 'node-modules'], { encoding: 'utf8' }).trim();
const require = createRequire(path.join(nodeModules, '..', 'package.json'));
const jsonService = require('vscode-json-languageservice');
const yamlService = require('yaml-language-server');
const { TextDocument } = require('vscode-languageserver-textdocument');

let tmp;
let dir;
let settings;
const requested = [];
let version = 0;

before(function () {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'catalogist-newcatalog-'));
  let bin = process.env.CATALOGIST_BIN ? path.resolve(process.env.CATALOGIST_BIN) : '';
  if (!bin) {
    bin = path.join(tmp, 'catalogist');
    execFileSync('go', ['build', '-o', bin, './cmd/catalogist'], { cwd: repo, stdio: 'inherit' });
  }
  dir = path.join(tmp, 'my-catalog');
  execFileSync(bin, ['new', 'catalog', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync(bin, ['new', 'chart', 'demo'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  settings = JSON.parse(fs.readFileSync(path.join(dir, '.vscode', 'settings.json'), 'utf8'));
});

after(function () {
  if (tmp) {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

// request answers file: URIs inside the catalog from disk, and nothing else.
async function request(uri) {
  requested.push(uri);
  if (uri.startsWith('file:')) {
    const file = fileURLToPath(uri);
    if (!path.relative(dir, file).startsWith('..')) {
      return fs.readFileSync(file, 'utf8');
    }
  }
  throw new Error(`not in the catalog: ${uri}`);
}

const resolveRelativePath = (rel, resource) => new URL(rel, resource).toString();

// folder resolves a settings path as VS Code does for a workspace folder's
// settings.
function folder(url) {
  return url.startsWith('./') ? new URL(url, pathToFileURL(dir).toString() + '/').toString() : url;
}

function services({ withSettings }) {
  const json = jsonService.getLanguageService({ schemaRequestService: request, workspaceContext: { resolveRelativePath } });
  json.configure({
    validate: true,
    allowComments: false,
    schemas: (withSettings ? settings['json.schemas'] : []).map((s) => ({ uri: folder(s.url), fileMatch: s.fileMatch, folderUri: pathToFileURL(dir).toString() })),
  });
  const yaml = yamlService.getLanguageService({ schemaRequestService: request, workspaceContext: { resolveRelativePath } });
  yaml.configure({
    validate: true, completion: true, hover: true, yamlVersion: '1.2', customTags: [], isKubernetes: false,
    schemas: withSettings ? Object.entries(settings['yaml.schemas']).map(([url, fileMatch]) => ({ uri: folder(url), fileMatch })) : [],
  });
  return {
    async validate(file, text) {
      version++;
      const doc = TextDocument.create(pathToFileURL(file).toString(), file.endsWith('.json') ? 'json' : 'yaml', version, text ?? fs.readFileSync(file, 'utf8'));
      if (doc.languageId === 'json') {
        return json.doValidation(doc, json.parseJSONDocument(doc), { comments: 'error', trailingCommas: 'error' });
      }
      return yaml.doValidation(doc, false);
    },
  };
}



async function assertProblemAt(svc, file, p, pattern) {
  const diags = await svc.validate(file, p.text);
  assert.ok(diags.some((d) => d.range.start.line === p.line && pattern.test(d.message)),
    `${file}: no problem matching ${pattern} at line ${p.line + 1}; got:\n${show(diags)}`);
}

test('the new catalog\'s files validate clean, and planted mistakes show, with its settings', async function () {
  const svc = services({ withSettings: true });
  const values = path.join(dir, 'charts', 'demo', 'values.schema.json');
  const catalogYAML = path.join(dir, 'catalog.yaml');
  for (const f of [values, catalogYAML]) {
    assert.deepEqual(await svc.validate(f), [], `${f}:\n${show(await svc.validate(f))}`);
  }
  await assertProblemAt(svc, values, plant(fs.readFileSync(values, 'utf8'), /"render": ("slider")/, '"slidr"'), /render is one of|Value is not accepted/);
  await assertProblemAt(svc, catalogYAML, plant(fs.readFileSync(catalogYAML, 'utf8'), /\n(iconsDir): /, 'iconDir'), /iconDir is not allowed/);
  const region = path.join(dir, 'region.yaml');
  await assertProblemAt(svc, region, plant('resources:\n  cpu: {sliderMin: 100, sliderMax: 4000, sliderStep: 100, sliderUnit: m}\n', /sliderMin: (100)/, '"100"'), /Incorrect type/);
  const regions = path.join(dir, 'regions.json');
  const doc = JSON.stringify({ regions: [{ id: 'paris', services: { defaultConfiguration: { sliders: { cpu: { sliderMin: 'low', sliderMax: 4000, sliderStep: 100, sliderUnit: 'm' } } } } }] }, null, 2);
  await assertProblemAt(svc, regions, { text: doc, line: doc.split('\n').findIndex((l) => l.includes('"low"')) }, /Incorrect type/);
});

test('catalog.yaml\'s modeline alone gives it its schema', async function () {
  const svc = services({ withSettings: false });
  const catalogYAML = path.join(dir, 'catalog.yaml');
  const text = fs.readFileSync(catalogYAML, 'utf8');
  assert.match(text.split('\n')[0], /^# yaml-language-server: \$schema=\S+$/);
  assert.deepEqual(await svc.validate(catalogYAML, text), []);
  await assertProblemAt(svc, catalogYAML, plant(text, /\n(iconsDir): /, 'iconDir'), /iconDir is not allowed/);
});

test('every schema came from the catalog', function () {
  assert.ok(requested.length > 0, 'no schema was requested');
  for (const uri of requested) {
    assert.ok(uri.startsWith(pathToFileURL(dir).toString() + '/.catalogist/schemas/'), `requested ${uri}`);
  }
});
