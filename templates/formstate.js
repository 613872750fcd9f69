// What a chart page's configuration form re-evaluates as the user edits
// values: which fields are hidden, which values launch would refuse, and the
// values document. Everything else (fields, defaults, bounds, choices,
// conditions, constraints) is the form model the build wrote, computed in Go
// by the same code as `catalogist form`; nothing here re-derives it.
//
// The rules are the Go ones (schema.HiddenKeys and schema.Check), written
// again for the browser; the vectors under testdata/form/*/edits.json hold
// both to the same results (go test and node --test). Messages are the
// reasons `catalogist launch` prints, word for word.

export const ITEMS = '[]';

// Tree indexes a model's options by key: children in form order, and the
// items of a list.
export function tree(model) {
  const byKey = new Map();
  const top = [];
  for (const o of model.options || []) {
    byKey.set(JSON.stringify(o.key), o);
  }
  const children = new Map();
  for (const o of model.options || []) {
    if (o.key.length === 1) {
      top.push(o);
      continue;
    }
    const last = o.key[o.key.length - 1];
    if (last === ITEMS) {
      continue;
    }
    const parent = byKey.get(JSON.stringify(o.key.slice(0, -1)));
    if (parent) {
      if (!children.has(parent)) {
        children.set(parent, []);
      }
      children.get(parent).push(o);
    }
  }
  return {
    top: top,
    byKey: byKey,
    option: function (key) { return byKey.get(JSON.stringify(key)); },
    children: function (o) { return children.get(o) || []; },
    items: function (o) { return byKey.get(JSON.stringify(o.key.concat([ITEMS]))); }
  };
}

function own(obj, k) {
  return Object.prototype.hasOwnProperty.call(obj, k);
}

function isObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

// lookup is launchcontext.Lookup: map keys, and list indexes written as
// plain decimals.
export function lookup(values, path) {
  let cur = values;
  for (const s of path) {
    if (Array.isArray(cur)) {
      const i = Number(s);
      if (!/^(0|[1-9][0-9]*)$/.test(s) || i >= cur.length) {
        return [undefined, false];
      }
      cur = cur[i];
    } else if (isObject(cur)) {
      if (!own(cur, s)) {
        return [undefined, false];
      }
      cur = cur[s];
    } else {
      return [undefined, false];
    }
  }
  return [cur, true];
}

// equal is the platform's deep equality of JSON values.
export function equal(a, b) {
  if (a === undefined) { a = null; }
  if (b === undefined) { b = null; }
  if (typeof a === 'number' || typeof b === 'number') {
    return typeof a === 'number' && typeof b === 'number' && a === b;
  }
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every(function (x, i) { return equal(x, b[i]); });
  }
  if (isObject(a)) {
    if (!isObject(b)) {
      return false;
    }
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every(function (k) { return own(b, k) && equal(a[k], b[k]); });
  }
  return a === b;
}

function hides(h, path, values) {
  if (h.always) {
    return true;
  }
  let target = h.path || [];
  if (h.relative) {
    target = path.slice(0, -1).concat(target);
  }
  const [v, ok] = lookup(values, target);
  return ok && equal(h.value, v);
}

// hiddenKeys lists the values paths the form hides, item indexes included,
// in form order: those whose condition holds, and everything under them.
export function hiddenKeys(t, values) {
  const out = [];
  function walk(o, path, visible) {
    if (!o.check || o.check.const) {
      return;
    }
    if (o.hiddenWhen && hides(o.hiddenWhen, path, values)) {
      visible = false;
    }
    if (!visible) {
      out.push(path.slice());
    }
    const [v, ok] = lookup(values, path);
    if (!ok) {
      return;
    }
    for (const ch of t.children(o)) {
      walk(ch, path.concat([ch.key[ch.key.length - 1]]), visible);
    }
    const items = t.items(o);
    if (Array.isArray(v) && items) {
      for (let i = 0; i < v.length; i++) {
        walk(items, path.concat([String(i)]), visible);
      }
    }
  }
  for (const o of t.top) {
    walk(o, [o.key[0]], true);
  }
  return out;
}

// Messages quote as Go's %q and show values as its JSON encoder does, so
// that they read the same as launch's.

export function quote(s) {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0);
    switch (ch) {
      case '"': out += '\\"'; continue;
      case '\\': out += '\\\\'; continue;
      case '\n': out += '\\n'; continue;
      case '\t': out += '\\t'; continue;
      case '\r': out += '\\r'; continue;
      case '\x07': out += '\\a'; continue;
      case '\b': out += '\\b'; continue;
      case '\f': out += '\\f'; continue;
      case '\v': out += '\\v'; continue;
    }
    if (c < 0x20 || c === 0x7f) {
      out += '\\x' + c.toString(16).padStart(2, '0');
    } else {
      out += ch;
    }
  }
  return out + '"';
}

function goJSON(v) {
  if (v === null || v === undefined) {
    return 'null';
  }
  if (Array.isArray(v)) {
    return '[' + v.map(goJSON).join(',') + ']';
  }
  if (isObject(v)) {
    return '{' + Object.keys(v).sort().map(function (k) { return goJSON(k) + ':' + goJSON(v[k]); }).join(',') + '}';
  }
  if (typeof v === 'number') {
    return String(v);
  }
  return JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, function (c) {
    return '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
  });
}

export function show(v) {
  if (typeof v === 'number') {
    return String(v);
  }
  return goJSON(v);
}

function withArticle(word) {
  return (word !== '' && 'aeiou'.indexOf(word[0]) >= 0 ? 'an ' : 'a ') + word;
}

// dotted names a value as --set does: dots between segments, a dot inside
// one escaped.
export function dotted(key) {
  if (key.length === 0) {
    return '(values)';
  }
  return key.map(function (k) { return k.split('.').join('\\.'); }).join('.');
}

function valid() { return { valid: true }; }
function invalid(why) { return { valid: false, why: why }; }
function approx(v, why) { return { valid: false, hasApprox: true, approx: v, why: why }; }

// within is the refusal of a part of a value (the item or property seg),
// judged by o as r: why leads to it; at (from the value) and leaf say where
// it lies and what it is there (schema's within).
function within(why, seg, o, r) {
  const v = invalid(why);
  v.at = [seg].concat(r.at || []);
  v.leaf = r.at ? r.leaf : r.why;
  v.leafOpt = r.at ? r.leafOpt : o;
  return v;
}

const patterns = new Map();

// patternOf compiles a pattern as the platform's form does: no flags. The
// model leaves out a pattern the form cannot compile.
function patternOf(p) {
  if (!patterns.has(p)) {
    let re = null;
    try {
      re = new RegExp(p);
    } catch (e) {
      re = null;
    }
    patterns.set(p, re);
  }
  return patterns.get(p);
}

// validateNoEnum is the platform's check of a value without the choices of
// a select (schema's validateNoEnum).
function validateNoEnum(t, o, v) {
  const c = o.check;
  const type = c.type;
  const min = c.sliderMin;
  const max = c.sliderMax;
  const unitText = c.unit === undefined || c.unit === null ? '' : c.unit;
  function inBounds(x) {
    return (min === undefined || x >= min) && (max === undefined || x <= max);
  }
  function rangeText() {
    const lo = min === undefined ? '-∞' : String(min) + unitText;
    const hi = max === undefined ? '∞' : String(max) + unitText;
    return lo + ' to ' + hi;
  }
  function stringWhy(s) {
    if (c.pattern) {
      const re = patternOf(c.pattern);
      if (re && !re.test(s)) {
        return quote(s) + ' does not match the pattern ' + quote(c.pattern);
      }
    }
    if (c.unit === undefined || c.unit === null) {
      return '';
    }
    const unit = c.unit;
    if (!s.endsWith(unit)) {
      return quote(s) + ' does not end with the slider unit ' + quote(unit);
    }
    const num = s.slice(0, s.length - unit.length);
    const x = parseFloat(num);
    if (Number.isNaN(x) && unit === '') {
      return quote(s) + ' is not a number';
    }
    if (Number.isNaN(x)) {
      return quote(s) + ' is not a number followed by the slider unit ' + quote(unit);
    }
    if (!inBounds(x) && String(x) !== num.trim()) {
      return quote(s) + ' reads as ' + String(x) + unit + " (the platform's parseFloat stops at the first character that is not part of a number), outside the slider range " + rangeText();
    }
    if (!inBounds(x)) {
      return quote(s) + ' is outside the slider range ' + rangeText();
    }
    return '';
  }
  function numberWhy(x) {
    if (c.minimum !== undefined && x < c.minimum) {
      return String(x) + ' is below the minimum ' + String(c.minimum);
    }
    if (!inBounds(x)) {
      return String(x) + ' is outside the slider range ' + rangeText();
    }
    if (type === 'integer' && x !== Math.trunc(x)) {
      return String(x) + ' is not a whole number';
    }
    return '';
  }
  function wrongType() {
    return invalid(show(v) + ' is not a valid ' + type);
  }
  const notType = show(v) + ' is not ' + withArticle(type);
  let why;
  if (typeof v === 'string') {
    switch (type) {
      case 'string':
        why = stringWhy(v);
        return why ? invalid(why) : valid();
      case 'boolean':
        switch (v.toLowerCase()) {
          case 'true': case 'yes': case '1': case 'on':
            return approx(true, notType);
          case 'false': case 'no': case '0': case 'off':
            return approx(false, notType);
        }
        return wrongType();
      case 'integer': case 'number': {
        const f = parseFloat(v);
        if (Number.isNaN(f)) {
          return wrongType();
        }
        why = numberWhy(f);
        return why ? invalid(why) : approx(f, notType);
      }
    }
    return wrongType();
  }
  if (typeof v === 'number') {
    switch (type) {
      case 'string': {
        const s = String(v);
        why = stringWhy(s);
        return why ? invalid(why) : approx(s, notType);
      }
      case 'boolean':
        return approx(v !== 0, notType);
      case 'integer': case 'number':
        why = numberWhy(v);
        return why ? invalid(why) : valid();
    }
    return wrongType();
  }
  if (typeof v === 'boolean') {
    switch (type) {
      case 'string': {
        const s = v ? 'true' : 'false';
        why = stringWhy(s);
        return why ? invalid(why) : approx(s, notType);
      }
      case 'boolean':
        return valid();
      case 'integer': case 'number': {
        const n = v ? 1 : 0;
        why = numberWhy(n);
        return why ? invalid(why) : approx(n, notType);
      }
    }
    return wrongType();
  }
  if (v === null || v === undefined) {
    switch (type) {
      case 'string':
        why = stringWhy('');
        return why ? invalid('null: ' + why) : approx('', notType);
      case 'boolean':
        return approx(false, notType);
      case 'integer': case 'number':
        why = numberWhy(0);
        return why ? invalid('null: ' + why) : approx(0, notType);
    }
    return wrongType();
  }
  if (Array.isArray(v)) {
    if (type !== 'array') {
      return wrongType();
    }
    const lo = c.minItems === undefined ? 0 : c.minItems;
    if (v.length < lo || (c.maxItems !== undefined && v.length > c.maxItems)) {
      return invalid('it has ' + v.length + ' items, outside the allowed count');
    }
    const items = t.items(o);
    if (!items || !items.check) {
      return valid();
    }
    const out = [];
    let approximated = false;
    for (let i = 0; i < v.length; i++) {
      const r = validate(t, items, v[i]);
      if (r.valid) {
        out.push(v[i]);
      } else if (r.hasApprox) {
        out.push(r.approx);
        approximated = true;
      } else {
        return within('item ' + i + ': ' + r.why, String(i), items, r);
      }
    }
    return approximated ? approx(out, "its items are not of the items' type") : valid();
  }
  if (type !== 'object') {
    return wrongType();
  }
  if (!c.properties) {
    return valid();
  }
  const children = t.children(o);
  const out = {};
  let approximated = Object.keys(v).length > children.length;
  for (const child of children) {
    const name = child.key[child.key.length - 1];
    if (!own(v, name)) {
      return invalid('it has no property ' + quote(name));
    }
    if (!child.check) {
      out[name] = v[name];
      continue;
    }
    const r = validate(t, child, v[name]);
    if (r.valid) {
      out[name] = v[name];
    } else if (r.hasApprox) {
      out[name] = r.approx;
      approximated = true;
    } else {
      return within('property ' + quote(name) + ': ' + r.why, name, child, r);
    }
  }
  return approximated ? approx(out, 'it has properties the option does not have') : valid();
}

// validate judges a value for an option: validateNoEnum, then the choices of
// a select.
function validate(t, o, v) {
  const r = validateNoEnum(t, o, v);
  const opts = o.check.choices;
  if (!opts) {
    return r;
  }
  let test = v;
  if (!r.valid) {
    if (!r.hasApprox) {
      return r;
    }
    test = r.approx;
  }
  if (!opts.some(function (x) { return equal(x, test); })) {
    return invalid(show(test) + ' is not one of the allowed values');
  }
  return r;
}

const decimal = /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/;

// sliderNumber is slider.Parse: the number of a slider value, or NaN.
function sliderNumber(v, unit) {
  if (typeof v === 'number') {
    return unit === '' ? v : NaN;
  }
  if (typeof v !== 'string' || !v.endsWith(unit)) {
    return NaN;
  }
  const num = v.slice(0, v.length - unit.length);
  return decimal.test(num) ? parseFloat(num) : NaN;
}

// check lists the values launch would refuse, by path (as --set writes
// it), with the reason: each option outside a list's items against its
// type, pattern, minimum, slider bounds and choices (a list's refused item
// at the path of what in it is refused: volumes.1.name), and each range's
// down end against the up end it pairs with. Hidden options are checked
// too: they are sent.
export function check(t, model, values) {
  const out = {};
  const downs = [];
  const ups = [];
  for (const o of model.options || []) {
    const c = o.check;
    if (!c || o.key.indexOf(ITEMS) >= 0 || (o.type === 'object' && c.properties)) {
      continue;
    }
    // An option whose render list has no choice makes the form fail, not
    // the value.
    if (o.render === 'list' && !c.choices) {
      continue;
    }
    const [v, ok] = lookup(values, o.key);
    if (!ok) {
      continue;
    }
    const r = validate(t, o, v);
    if (!r.valid && !r.hasApprox) {
      // A refused item is reported where it is refused, as schema.Check
      // does: the page shows it beside that field.
      if (r.at) {
        out[dotted(o.key.concat(r.at))] = r.leaf;
      } else {
        out[dotted(o.key)] = r.why;
      }
      continue;
    }
    if (c.rangeId && c.extremity === 'down') {
      downs.push(o);
    } else if (c.rangeId && c.extremity === 'up') {
      ups.push(o);
    }
  }
  const used = new Set();
  for (const d of downs) {
    for (const u of ups) {
      if (used.has(u) || u.check.rangeId !== d.check.rangeId) {
        continue;
      }
      used.add(u);
      const dc = d.check;
      const uc = u.check;
      if (dc.bounded && uc.bounded && (dc.rangeUnit || '') === (uc.rangeUnit || '')) {
        const unit = dc.rangeUnit || '';
        const dv = sliderNumber(lookup(values, d.key)[0], unit);
        const uv = sliderNumber(lookup(values, u.key)[0], unit);
        if (!Number.isNaN(dv) && !Number.isNaN(uv) && dv > uv) {
          out[dotted(d.key)] = show(lookup(values, d.key)[0]) + ' is above ' + dotted(u.key) + ', the other end of the ' + quote(dc.rangeId) + ' range';
        }
      }
      break;
    }
  }
  return out;
}

// changes is what differs in values from the form's defaults: objects key
// by key, anything else (lists too, which Helm replaces whole) as a whole.
// Given to Helm (-f) over the defaults it gives the whole document back.
export function changes(defaults, values) {
  const out = {};
  for (const k of Object.keys(values)) {
    const v = values[k];
    const d = defaults[k];
    if (own(defaults, k) && isObject(d) && isObject(v)) {
      const sub = changes(d, v);
      if (Object.keys(sub).length > 0) {
        out[k] = sub;
      }
    } else if (!own(defaults, k) || !equal(d, v)) {
      out[k] = v;
    }
  }
  return out;
}

// fullDocument is the values document a visitor takes away: every value
// but those at keys (the model's prefilled: what the launch context fills
// where the page's does not) that still hold the page's default, which
// given to launch would overwrite what the profile fills, and given to
// helm install would repeat the chart's defaults; an object they leave
// empty goes with them. A value the visitor set stays.
export function fullDocument(defaults, values, keys) {
  const out = clone(values);
  for (const key of keys) {
    const [v, ok] = lookup(out, key);
    const [d, hasDefault] = lookup(defaults, key);
    if (!ok || !hasDefault || !equal(v, d)) {
      continue;
    }
    for (let n = key.length; n > 0; n--) {
      const [parent] = lookup(out, key.slice(0, n - 1));
      if (!isObject(parent)) {
        break;
      }
      delete parent[key[n - 1]];
      if (Object.keys(parent).length > 0 || n === 1) {
        break;
      }
    }
  }
  return out;
}

export function clone(v) {
  return v === undefined ? undefined : JSON.parse(JSON.stringify(v));
}

// setAt puts v at a values path; false when nothing holds that path.
export function setAt(values, path, v) {
  const [parent, ok] = lookup(values, path.slice(0, -1));
  const last = path[path.length - 1];
  if (!ok) {
    return false;
  }
  if (Array.isArray(parent)) {
    const i = Number(last);
    if (!(i >= 0 && i < parent.length)) {
      return false;
    }
    parent[i] = v;
    return true;
  }
  if (isObject(parent)) {
    parent[last] = v;
    return true;
  }
  return false;
}

// itemsKey is the option key of the items of the list at a values path.
export function itemsKey(path) {
  return path.map(function (s, i) { return i > 0 && /^[0-9]+$/.test(s) ? ITEMS : s; }).concat([ITEMS]);
}

// optionKey is the option key of a values path.
export function optionKey(path) {
  return path.map(function (s, i) { return i > 0 && /^[0-9]+$/.test(s) ? ITEMS : s; });
}

// YAML output: plain scalars where YAML 1.1 and 1.2 read them back as the
// same string, double-quoted (JSON) otherwise; sorted keys, as Helm writes.
const plainSafe = /^[A-Za-z_/][A-Za-z0-9_./-]*$/;
const ambiguous = /^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~)$/;

function scalar(v) {
  if (v === null || v === undefined) {
    return 'null';
  }
  if (typeof v === 'number' || typeof v === 'boolean') {
    return String(v);
  }
  if (plainSafe.test(v) && !ambiguous.test(v)) {
    return v;
  }
  return JSON.stringify(v);
}

function key(k) {
  return plainSafe.test(k) && !ambiguous.test(k) ? k : JSON.stringify(k);
}

export function toYAML(v) {
  const lines = [];
  function emit(x, indent) {
    const pad = ' '.repeat(indent);
    if (isObject(x)) {
      for (const k of Object.keys(x).sort()) {
        const c = x[k];
        if ((isObject(c) && Object.keys(c).length > 0) || (Array.isArray(c) && c.length > 0)) {
          lines.push(pad + key(k) + ':');
          emit(c, isObject(c) ? indent + 2 : indent);
        } else {
          lines.push(pad + key(k) + ': ' + (isObject(c) ? '{}' : Array.isArray(c) ? '[]' : scalar(c)));
        }
      }
      return;
    }
    for (const c of x) {
      if ((isObject(c) && Object.keys(c).length > 0) || (Array.isArray(c) && c.length > 0)) {
        const start = lines.length;
        emit(c, indent + 2);
        lines[start] = pad + '- ' + lines[start].slice(indent + 2);
      } else {
        lines.push(pad + '- ' + (isObject(c) ? '{}' : Array.isArray(c) ? '[]' : scalar(c)));
      }
    }
  }
  if (isObject(v) && Object.keys(v).length === 0) {
    return '{}\n';
  }
  emit(v, 0);
  return lines.join('\n') + '\n';
}
