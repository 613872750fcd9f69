// Checks the editor schemas `catalogist build` publishes in the language
// services the editors run, configured with the lines docs/contributors.md's "Editor
// schemas" section gives users: VS Code's JSON language service
// (vscode-json-languageservice) with the section's json.schemas settings,
// and yaml-language-server with its first-line $schema comment. The
// schemas' URLs are answered from the built sites; nothing goes to the
// network.
//
//   node --test testdata/editor/
//
// The catalogist binary is $CATALOGIST_BIN, else built once with go build;
// the npm packages are those of tools/browser, in $CATALOGIST_NODE_MODULES,
// else installed by scripts/install-tools.sh.

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
// The reference platform's own catalog, whose charts use x-onyxia: given
// by make check-corpus, which runs the test that validates it.
const corpus = process.env.CATALOGIST_CORPUS ? path.resolve(process.env.CATALOGIST_CORPUS) : '';

const nodeModules = process.env.CATALOGIST_NODE_MODULES ||
  execFileSync('bash', [path.join(repo, 'scripts', 'install-tools.sh'), 'node-modules'], { encoding: 'utf8' }).trim();
const require = createRequire(path.join(nodeModules, '..', 'package.json'));
const jsonService = require('vscode-json-languageservice');
const yamlService = require('yaml-language-server');
const { TextDocument } = require('vscode-languageserver-textdocument');

// The version of the next document: yaml-language-server keeps a file's
// parse by URI and version.
let version = 0;

function binary(tmp) {
  if (process.env.CATALOGIST_BIN) {
    return path.resolve(process.env.CATALOGIST_BIN);
  }
  const bin = path.join(tmp, 'catalogist');
  execFileSync('go', ['build', '-o', bin, './cmd/catalogist'], { cwd: repo, stdio: 'inherit' });
  return bin;
}

function glob(dir, pattern) {
  if (!fs.existsSync(dir)) {
    assert.fail(`${dir} does not exist`);
  }
  return fs.readdirSync(dir).filter((n) => pattern.test(n)).map((n) => path.join(dir, n)).sort();
}

function chartSchemas(catalogDir) {
  const charts = path.join(catalogDir, 'charts');
  return glob(charts, /./).map((c) => path.join(c, 'values.schema.json')).filter((f) => fs.existsSync(f));
}

function baseURL(catalogDir) {
  const m = /^baseURL:\s*(\S+)\s*$/m.exec(fs.readFileSync(path.join(catalogDir, 'catalog.yaml'), 'utf8'));
  assert.ok(m, `${catalogDir}/catalog.yaml has no baseURL`);
  return m[1].replace(/\/+$/, '');
}

// readme returns the configuration lines of docs/contributors.md's "## Editor schemas"
// section: its first yaml block (the modeline) and its first json block
// (VS Code's settings).
function readme() {
  const lines = fs.readFileSync(path.join(repo, 'docs', 'contributors.md'), 'utf8').split('\n');
  const start = lines.findIndex((l) => l.trim() === '## Editor schemas');
  assert.notEqual(start, -1, 'docs/contributors.md has no "## Editor schemas" section');
  const blocks = {};
  // Up to the next heading of the same level or above; a comment line in
  // a block is no heading.
  for (let i = start + 1; i < lines.length && !/^#{1,2} /.test(lines[i]); i++) {
    const m = /^```(\w*)\s*$/.exec(lines[i]);
    if (!m) {
      continue;
    }
    const close = lines.findIndex((l, j) => j > i && l.trim() === '```');
    assert.ok(close > i, `docs/contributors.md:${i + 1}: the block is not closed`);
    blocks[m[1]] = blocks[m[1]] ?? lines.slice(i + 1, close).join('\n');
    i = close;
  }
  assert.ok(blocks.yaml, 'docs/contributors.md: the "Editor schemas" section has no yaml block');
  assert.ok(blocks.json, 'docs/contributors.md: the "Editor schemas" section has no json block');
  const settings = JSON.parse(blocks.json)['json.schemas'];
  assert.ok(Array.isArray(settings), 'docs/contributors.md: the json block has no "json.schemas" list');
  return { modeline: blocks.yaml.trim(), settings };
}

// A workspace is a catalog opened in the editor: its files under dir, its
// site (published at site) built into out, and the two language services
// configured as docs/contributors.md says, with its site replaced by the
// catalog's.
function workspace(cfg, readmeSite, dir, site, out) {
  const requested = [];
  const prefix = site + '/schemas/';
  async function request(uri) {
    requested.push(uri);
    if (uri.startsWith(prefix) && !uri.slice(prefix.length).includes('/')) {
      return fs.readFileSync(path.join(out, 'schemas', uri.slice(prefix.length)), 'utf8');
    }
    throw new Error(`no network here: ${uri}`);
  }
  const resolveRelativePath = (rel, resource) => new URL(rel, resource).toString();
  const forSite = (s) => s.split(readmeSite).join(site);

  const json = jsonService.getLanguageService({ schemaRequestService: request, workspaceContext: { resolveRelativePath } });
  // As VS Code's JSON server turns json.schemas into the service's
  // configuration, for settings of the workspace folder.
  const folderUri = pathToFileURL(dir).toString();
  json.configure({
    validate: true,
    allowComments: false,
    schemas: JSON.parse(forSite(JSON.stringify(cfg.settings))).map((s, i) => ({
      uri: s.url || `vscode://schemas/custom/${i}`, fileMatch: s.fileMatch, schema: s.schema, folderUri,
    })),
  });

  const yaml = yamlService.getLanguageService({ schemaRequestService: request, workspaceContext: { resolveRelativePath } });
  yaml.configure({ validate: true, completion: true, hover: true, yamlVersion: '1.2', customTags: [], isKubernetes: false });

  // The documented comment names catalog.schema.json; its parenthesis gives
  // the other files theirs.
  const modeline = (name) => forSite(cfg.modeline).replace('catalog.schema.json', name);

  return {
    site, requested,
    doc(file, text) {
      const language = file.endsWith('.json') ? 'json' : 'yaml';
      version++;
      return TextDocument.create(pathToFileURL(file).toString(), language, version, text ?? fs.readFileSync(file, 'utf8'));
    },
    // withModeline puts the documented comment for schema name on the first
    // line of a YAML file's text.
    withModeline(name, text) {
      return modeline(name) + '\n' + text;
    },
    async validate(doc) {
      if (doc.languageId === 'json') {
        // VS Code's settings for the json language.
        return json.doValidation(doc, json.parseJSONDocument(doc), { comments: 'error', trailingCommas: 'error' });
      }
      return yaml.doValidation(doc, false);
    },
    async complete(doc, position) {
      if (doc.languageId === 'json') {
        return json.doComplete(doc, position, json.parseJSONDocument(doc));
      }
      return yaml.doComplete(doc, position, false);
    },
  };
}

// deprecationMessages are those of the built schemas: both services show
// them as warnings, VS Code's JSON service with its code for deprecations,
// yaml-language-server with no code at all.
function deprecationMessages(out) {
  const found = new Set();
  const walk = (v) => {
    if (Array.isArray(v)) {
      v.forEach(walk);
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'deprecationMessage' && typeof x === 'string') {
          found.add(x);
        }
        walk(x);
      }
    }
  };
  for (const f of glob(path.join(out, 'schemas'), /\.json$/)) {
    walk(JSON.parse(fs.readFileSync(f, 'utf8')));
  }
  return found;
}

const deprecations = new Set();

function isDeprecation(d) {
  return d.code === jsonService.ErrorCode.Deprecated || deprecations.has(d.message);
}



let tmp;
let cfg;
let readmeSite;
const catalogs = []; // { dir, ws }
let ide;
let onyxia;

before(function () {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'catalogist-editor-'));
  const bin = binary(tmp);
  cfg = readme();
  readmeSite = baseURL(path.join(repo, 'examples', 'ide'));
  assert.ok(cfg.modeline.startsWith('# yaml-language-server: $schema='), `docs/contributors.md's yaml line is no modeline: ${cfg.modeline}`);
  assert.ok(cfg.modeline.endsWith(`${readmeSite}/schemas/catalog.schema.json`),
    `docs/contributors.md's modeline does not name the ide example's catalog schema: ${cfg.modeline}`);
  const build = (dir, out, ...flags) => execFileSync(bin, ['build', dir, '--out', out, ...flags], { stdio: ['ignore', 'ignore', 'pipe'] });
  for (const catalogYAML of glob(path.join(repo, 'examples'), /./).map((d) => path.join(d, 'catalog.yaml')).filter((f) => fs.existsSync(f))) {
    const dir = path.dirname(catalogYAML);
    const out = path.join(tmp, path.basename(dir));
    build(dir, out);
    const ws = workspace(cfg, readmeSite, dir, baseURL(dir), out);
    catalogs.push({ dir, ws });
    deprecationMessages(out).forEach((m) => deprecations.add(m));
    if (path.basename(dir) === 'ide') {
      ide = ws;
    }
  }
  assert.ok(ide, 'examples/ide was not built');
  // The platform's extension key: the site of a catalog written for it.
  const out = path.join(tmp, 'onyxia');
  build(path.join(repo, 'examples', 'ide'), out, '--extension-key', 'x-onyxia');
  // Its files are the corpus's when given, else a folder of their own.
  onyxia = workspace(cfg, readmeSite, corpus || path.join(tmp, 'onyxia-catalog'), readmeSite, out);
  deprecationMessages(out).forEach((m) => deprecations.add(m));
});

after(function () {
  if (tmp) {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

async function assertClean(ws, doc) {
  const diags = await ws.validate(doc);
  assert.deepEqual(diags.filter((d) => !isDeprecation(d)), [], `${fileURLToPath(doc.uri)}:\n${show(diags)}`);
  return diags;
}

async function assertProblemAt(ws, doc, line, pattern) {
  const diags = await ws.validate(doc);
  const found = diags.filter((d) => !isDeprecation(d) && d.range.start.line === line && pattern.test(d.message));
  assert.ok(found.length > 0, `${fileURLToPath(doc.uri)}: no problem matching ${pattern} at line ${line + 1}; got:\n${show(diags)}`);
  return diags;
}

test('the examples validate', async function () {
  let files = 0;
  for (const { dir, ws } of catalogs) {
    const catalogYAML = path.join(dir, 'catalog.yaml');
    await assertClean(ws, ws.doc(catalogYAML, ws.withModeline('catalog.schema.json', fs.readFileSync(catalogYAML, 'utf8'))));
    for (const f of chartSchemas(dir)) {
      // No deprecation either: the examples are what lint passes clean.
      assert.deepEqual(await assertClean(ws, ws.doc(f)), [], f);
      files++;
    }
  }
  const region = path.join(repo, 'examples', 'region.yaml');
  assert.deepEqual(await assertClean(ide, ide.doc(region, ide.withModeline('region.schema.json', fs.readFileSync(region, 'utf8')))), []);
  assert.ok(files > 5, `only ${files} values schemas`);
  draftsMapped(catalogs.flatMap((c) => chartSchemas(c.dir)));
});

// draftsMapped checks that the documented settings give every draft the
// charts write the catalog's schema.
function draftsMapped(files) {
  const drafts = new Set(cfg.settings.filter((s) => !s.fileMatch).map((s) => s.url));
  for (const f of files) {
    const draft = JSON.parse(fs.readFileSync(f, 'utf8')).$schema;
    assert.ok(draft === undefined || drafts.has(draft.replace(/#$/, '')), `${f}: the documented settings do not map its $schema ${draft}`);
  }
}

// Defined with the corpus only: make check-corpus gives it.
if (corpus) {
  test('the corpus validates', async function () {
    const files = chartSchemas(corpus);
    for (const f of files) {
      await assertClean(onyxia, onyxia.doc(f));
    }
    assert.ok(files.length > 20, `only ${files.length} values schemas in ${corpus}`);
    draftsMapped(files);
  });
}

test('a catalog\'s files take the schemas the documented lines name', async function () {
  const values = path.join(repo, 'examples', 'ide', 'charts', 'vscode-python', 'values.schema.json');
  const text = fs.readFileSync(values, 'utf8');
  const bad = plant(text, /"render": ("slider")/, '"slidr"');
  // The drafts' addresses the charts write, and no $schema at all: each
  // reaches the catalog's schema, and its help.
  const variants = [
    bad.text.replace(/"\$schema": "[^"]*"/, '"$schema": "http://json-schema.org/schema#"'),
    bad.text.replace(/"\$schema": "[^"]*"/, '"$schema": "http://json-schema.org/draft-07/schema"'),
    bad.text.replace(/"\$schema": "[^"]*"/, '"$schema": "http://json-schema.org/draft-07/schema#"'),
    bad.text.replace(/"\$schema": "[^"]*",/, '"$comment": "no draft named",'),
  ];
  assert.match(bad.text, /"\$schema": "[^"]*",/, 'the example has no $schema to replace');
  for (const v of variants) {
    const diags = await assertProblemAt(ide, ide.doc(values, v), bad.line, /render is one of/);
    assert.equal(diags.length, 1, show(diags));
  }
  // The platform's regions.json, by file name.
  const regions = path.join(repo, 'examples', 'ide', 'regions.json');
  const doc = JSON.stringify({ regions: [{ id: 'paris', services: { defaultConfiguration: { sliders: { cpu: { sliderMin: 'low', sliderMax: 4000, sliderStep: 100, sliderUnit: 'm' } } } } }] }, null, 2);
  await assertProblemAt(ide, ide.doc(regions, doc), doc.split('\n').findIndex((l) => l.includes('"low"')), /Incorrect type/);
  assert.deepEqual(await ide.validate(ide.doc(regions, doc.replace('"low"', '100'))), []);
});

test('planted mistakes are problems at their line', async function () {
  // catalog.yaml: an unknown key.
  const catalogYAML = path.join(repo, 'examples', 'ide', 'catalog.yaml');
  let p = plant(ide.withModeline('catalog.schema.json', fs.readFileSync(catalogYAML, 'utf8')), /\n(iconsDir): /, 'iconDir');
  await assertProblemAt(ide, ide.doc(catalogYAML, p.text), p.line, /iconDir is not allowed/);

  // A region's slider bound written as a string.
  const region = path.join(repo, 'examples', 'region.yaml');
  p = plant(ide.withModeline('region.schema.json', fs.readFileSync(region, 'utf8')), /cpu: +\{sliderMin: (100),/, '"100"');
  await assertProblemAt(ide, ide.doc(region, p.text), p.line, /Incorrect type\. Expected "?number/);

  // values.schema.json: a render the form does not know, and hidden inside
  // the extension that is not a boolean.
  const values = path.join(repo, 'examples', 'ide', 'charts', 'vscode-python', 'values.schema.json');
  const text = fs.readFileSync(values, 'utf8');
  p = plant(text, /"render": ("slider")/, '"slidr"');
  await assertProblemAt(ide, ide.doc(values, p.text), p.line, /render is one of/);
  p = plant(text, /"x-platform": \{\s*"hidden": (true)/, '"yes"');
  await assertProblemAt(ide, ide.doc(values, p.text), p.line, /hidden inside x-platform is true or false/);

  // With the platform's extension key (the corpus replaces nearly every
  // option by a registry schema, which is not checked: the example is
  // written for it instead).
  const ported = path.join(corpus, 'charts', 'vscode-python', 'values.schema.json');
  p = plant(text.replaceAll('"x-platform"', '"x-onyxia"'), /"x-onyxia": \{\s*"hidden": (true)/, '1');
  await assertProblemAt(onyxia, onyxia.doc(ported, p.text), p.line, /hidden inside x-onyxia is true or false/);

  // What lint only warns about is a deprecation, not a problem: an unknown
  // key in the extension, another platform's extension key.
  p = plant(text, /"x-platform": \{\s*("hidden": true)/, '"hidn": true');
  let diags = await assertClean(ide, ide.doc(values, p.text));
  assert.ok(diags.some((d) => d.range.start.line === p.line && d.code === jsonService.ErrorCode.Deprecated),
    `no deprecation at line ${p.line + 1}:\n${show(diags)}`);
  p = plant(text, /("x-platform"): \{\s*"hidden": true/, '"x-onyxia"');
  diags = await assertClean(ide, ide.doc(values, p.text));
  assert.ok(diags.some((d) => d.range.start.line === p.line && d.code === jsonService.ErrorCode.Deprecated),
    `no deprecation at line ${p.line + 1}:\n${show(diags)}`);

  // A catalogs file entry with a misspelt key.
  const catalogsYAML = path.join(tmp, 'catalogs.yaml');
  const good = ide.withModeline('catalogs.schema.json', '- id: ide\n  location: https://example-org.github.io/catalog-ide\n  status: PROD\n');
  assert.deepEqual(await ide.validate(ide.doc(catalogsYAML, good)), []);
  p = plant(good + '- id: databases\n  locaton: out/databases\n', /\n {2}(locaton): out/, 'locaton');
  await assertProblemAt(ide, ide.doc(catalogsYAML, p.text), p.line, /locaton is not allowed/);
});

test('completion offers the keys', async function () {
  // Inside the extension object of a values.schema.json.
  const values = path.join(repo, 'examples', 'ide', 'charts', 'vscode-python', 'values.schema.json');
  const p = plant(fs.readFileSync(values, 'utf8'), /"x-platform": \{()\s*"hidden": true/, '\n            ');
  const lines = p.text.split('\n');
  const doc = ide.doc(values, p.text);
  let list = await ide.complete(doc, { line: p.line + 1, character: lines[p.line + 1].length });
  let labels = list.items.map((i) => i.label.replace(/^"|"$/g, ''));
  for (const k of ['overwriteDefaultWith', 'useRegionSliderConfig', 'overwriteListEnumWith', 'readonly', 'overwriteSchemaWith']) {
    assert.ok(labels.includes(k), `no ${k} among ${labels}`);
  }
  const item = list.items.find((i) => i.label.includes('overwriteDefaultWith'));
  assert.match(JSON.stringify(item.documentation ?? item.detail ?? ''), /launch context/, 'overwriteDefaultWith has no help');

  // In catalog.yaml.
  const catalogYAML = path.join(repo, 'examples', 'ide', 'catalog.yaml');
  const text = ide.withModeline('catalog.schema.json', 'name: ide\n\n');
  list = await ide.complete(ide.doc(catalogYAML, text), { line: 2, character: 0 });
  labels = list.items.map((i) => i.label);
  for (const k of ['baseURL', 'extensionKey', 'platform', 'sliders', 'lint', 'artifacthub', 'platformURL', 'platformCatalogID']) {
    assert.ok(labels.includes(k), `no ${k} among ${labels}`);
  }
  assert.ok(!labels.includes('name'), 'name is offered again');
});

// Runs last: what the services asked for, over every test.
test('the services fetch only the site\'s schemas', function () {
  for (const ws of [...catalogs.map((c) => c.ws), onyxia]) {
    assert.ok(ws.requested.length > 0, `${ws.site}: nothing fetched`);
    assert.deepEqual(ws.requested.filter((u) => !u.startsWith(ws.site + '/schemas/')), [], `${ws.site}: fetched elsewhere`);
  }
});
