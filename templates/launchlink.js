// Launcher links of the reference platform: the link a chart page's
// "Open in" button carries, which opens the chart's launcher on the
// platform with the form's changes already set, not launched. The rules are
// internal/model/launchlink's (what `catalogist form --launch-url` prints),
// written again for the browser; testdata/form/launchlink.json holds both
// to the same links, byte for byte.
//
// A link carries single values, each a query parameter whose key is the
// values path (a dot inside a key written %5C., a list index [n]) and whose
// value is true, false, null, - (removed), a number as JavaScript writes it
// or «encodeURIComponent(string)». What it cannot carry is left out and
// named, never sent otherwise.

import { equal } from './formstate.js';

export const REASONS = {
  secret: 'a secret, which a link never carries: enter it on the platform',
  topLevel: 'a top-level value: the platform reads a parameter without a dot as its own, not as a value',
  key: 'a key the platform would not read back: a link\'s keys are letters, digits and - _ ~ ! $ ( ) * , ; : @ / .',
  signIn: 'a key under oidc-spa, whose parameters the platform keeps for its sign-in',
  quote: 'a string holding \u00bb, where the platform\'s reading of a string ends',
  empty: 'an empty list or mapping: a link carries single values only',
  shorter: 'a shorter list: a link sets items, it cannot remove them',
  mapping: 'a mapping in place of a list, which the platform cannot apply from a link',
  value: 'a value a link cannot carry: text that is not UTF-8, or a number that is not finite'
};

// secretNamed is secret.Named: a key whose name says its value is secret.
const secretNamed = /pass(word|wd)?$|secret|token|credential(s)?$|private.?key/i;

function isObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

// byCodePoint orders keys as Go orders strings (by UTF-8 bytes, which is
// code point order), not by UTF-16 code units.
function byCodePoint(a, b) {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a.codePointAt(i);
    const y = b.codePointAt(j);
    if (x !== y) {
      return x < y ? -1 : 1;
    }
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return i < a.length ? 1 : (j < b.length ? -1 : 0);
}

// secrets is launchlink.Secrets: a path under a key named like a secret,
// or at or under a password option (passwords are option keys, '[]' for a
// list's items).
export function secrets(passwords) {
  return function (path) {
    if (path.some(function (s) { return typeof s === 'string' && secretNamed.test(s); })) {
      return true;
    }
    return (passwords || []).some(function (p) {
      return p.length <= path.length && p.every(function (k, i) {
        return typeof path[i] === 'number' ? k === '[]' : k === path[i];
      });
    });
  };
}

// passwordKeys are the keys of a form model's password options.
export function passwordKeys(model) {
  return (model.options || []).filter(function (o) { return o.widget === 'password'; }).map(function (o) { return o.key; });
}

// changes is launchlink.Changes: the entries ({path, value} or {path,
// remove: true}) that turn defaults into values, leaf by leaf, keys in
// order; and what the link leaves out ({path, key, reason}).
export function changes(defaults, values, isSecret) {
  const entries = [];
  const left = [];
  function omit(path, reason) {
    left.push({ path: path, key: setKey(path), reason: REASONS[reason] });
  }
  function set(path, v, remove) {
    if (isSecret && isSecret(path, v)) {
      omit(path, 'secret');
      return;
    }
    const kp = keyProblem(path);
    if (kp) {
      omit(path, kp);
      return;
    }
    if (remove) {
      entries.push({ path: path, remove: true });
      return;
    }
    if (typeof v === 'number' && !Number.isFinite(v)) {
      omit(path, 'value');
      return;
    }
    if (typeof v === 'string') {
      if (v.indexOf('\u00bb') >= 0) {
        omit(path, 'quote');
        return;
      }
      try {
        encodeURIComponent(v);
      } catch (e) {
        omit(path, 'value'); // a lone surrogate: no UTF-8 text
        return;
      }
    }
    if (v !== null && typeof v === 'object') {
      omit(path, 'value');
      return;
    }
    entries.push({ path: path, value: v === undefined ? null : v });
  }
  function leaves(path, v) {
    if (isObject(v)) {
      const keys = Object.keys(v).sort(byCodePoint);
      if (keys.length === 0) {
        omit(path, 'empty');
        return;
      }
      keys.forEach(function (k) { leaves(path.concat([k]), v[k]); });
    } else if (Array.isArray(v)) {
      if (v.length === 0) {
        omit(path, 'empty');
        return;
      }
      v.forEach(function (c, i) { leaves(path.concat([i]), c); });
    } else {
      set(path, v, false);
    }
  }
  function object(path, d, v) {
    const keys = Object.keys(v).concat(Object.keys(d).filter(function (k) { return !Object.prototype.hasOwnProperty.call(v, k); }));
    keys.sort(byCodePoint);
    keys.forEach(function (k) {
      const p = path.concat([k]);
      const had = Object.prototype.hasOwnProperty.call(d, k);
      const has = Object.prototype.hasOwnProperty.call(v, k);
      if (!has) {
        set(p, null, true);
      } else if (!had) {
        leaves(p, v[k]);
      } else {
        value(p, d[k], v[k]);
      }
    });
  }
  function value(path, d, v) {
    if (isObject(v)) {
      if (isObject(d)) {
        object(path, d, v);
      } else if (Array.isArray(d)) {
        omit(path, 'mapping');
      } else {
        leaves(path, v);
      }
    } else if (Array.isArray(v)) {
      if (!Array.isArray(d)) {
        leaves(path, v);
        return;
      }
      v.forEach(function (c, i) {
        if (i < d.length) {
          value(path.concat([i]), d[i], c);
        } else {
          leaves(path.concat([i]), c);
        }
      });
      if (v.length < d.length) {
        omit(path, 'shorter');
      }
    } else if (!equal(d, v)) {
      set(path, v, false);
    }
  }
  object([], defaults || {}, values || {});
  return { entries: entries, left: left };
}

// keyText: the characters a parameter's key reaches the platform with as
// written (it does not decode keys, and a browser encodes the others).
const keyText = /^[A-Za-z0-9\-_~!$()*,;:@/.]+$/;

function keyProblem(path) {
  if (path.some(function (s) { return typeof s === 'string' && !keyText.test(s); })) {
    return 'key';
  }
  const key = paramKey(path);
  if (key.indexOf('.') < 0) {
    return 'topLevel';
  }
  if (key.startsWith('oidc-spa.')) {
    return 'signIn';
  }
  return '';
}

export function paramKey(path) {
  let out = '';
  for (const s of path) {
    if (typeof s === 'number') {
      out += '[' + s + ']';
    } else {
      out += (out === '' ? '' : '.') + s.split('.').join('%5C.');
    }
  }
  return out;
}

export function paramValue(e) {
  if (e.remove) {
    return '-';
  }
  const v = e.value;
  if (v === null) {
    return 'null';
  }
  if (typeof v === 'string') {
    return '\u00ab' + encodeURIComponent(v) + '\u00bb';
  }
  return String(v);
}

// setKey names a path as --set does, for the page's notes.
export function setKey(path) {
  let out = '';
  for (const s of path) {
    if (typeof s === 'number') {
      out += '[' + s + ']';
    } else {
      out += (out === '' ? '' : '.') + s.split('.').join('\\.');
    }
  }
  return out;
}

// link is Target.Link: the launcher of target ({url, catalogID, chart,
// version}) with the entries set, autoLaunch false.
export function link(target, entries) {
  let out = target.url.replace(/\/+$/, '') + '/launcher/' + encodeURIComponent(target.catalogID) + '/' +
    encodeURIComponent(target.chart) + '?';
  if (target.version) {
    out += 'version=' + encodeURIComponent(target.version) + '&';
  }
  return withEntries(out + 'autoLaunch=false', entries);
}

// withEntries adds the entries to a link without any (the one the page
// was built with).
export function withEntries(base, entries) {
  let out = base;
  for (const e of entries) {
    out += '&' + paramKey(e.path) + '=' + paramValue(e);
  }
  return out;
}
