// The configuration form of a chart page: renders the form model the build
// embedded in the page (the one `catalogist form` prints) as the platform
// shows it, and re-evaluates on each edit what depends on the values:
// hidden fields, refused values and the values document (formstate.js).
//
// Plain DOM, no framework and no inline code or style: the page's CSP allows
// scripts and styles from the site only. Every text goes through
// textContent.
import * as fst from './formstate.js';
import * as launchlink from './launchlink.js';

// manyTabs is the most tabs shown as a row whatever the form's width.
const manyTabs = 6;

const root = document.querySelector('[data-form-root]');
const source = document.getElementById('form-model');
if (root && source) {
  start();
}

function start() {
  const began = performance.now();
  let model;
  try {
    model = JSON.parse(source.textContent);
  } catch (e) {
    root.textContent = 'The form model of this page is not readable.';
    return;
  }
  if (!model || !model.values || typeof model.values !== 'object') {
    root.textContent = 'The platform computes no values for this chart.';
    return;
  }
  const t = fst.tree(model);
  const defaults = fst.clone(model.values);
  const state = { model: model, t: t, values: fst.clone(model.values), defaults: defaults, full: false };
  const pairs = pairRanges(model);
  // What the visitor's profile fills at launch: left out of the full
  // document while unchanged, and the options the page cannot give a
  // value (model.profile) said to be the profile's.
  const profile = model.prefilled || [];
  const needs = new Set((model.profile || []).map(function (x) { return JSON.stringify(x.key); }));
  let n = 0;
  const nextID = function () { n++; return 'form-f' + n; };

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  function label(o) {
    return o.title || o.key[o.key.length - 1];
  }

  function edited(path, v) {
    fst.setAt(state.values, path, v);
    refresh();
  }

  // Notes under a field: where its pre-filled value comes from.
  function notes(o, box) {
    const c = o.context;
    if (!c || !c.paths || c.paths.length === 0) {
      return;
    }
    const p = el('p', 'field-note');
    p.appendChild(document.createTextNode('Pre-filled from '));
    c.paths.forEach(function (path, i) {
      if (i > 0) { p.appendChild(document.createTextNode(', ')); }
      p.appendChild(el('code', '', path));
    });
    if (c.missing && c.missing.length > 0) {
      p.appendChild(document.createTextNode('; falls back to the default on the ' + model.platform +
        ' platform, whose launch context has no ' + c.missing.join(', ')));
    } else if (needs.has(JSON.stringify(o.key))) {
      p.appendChild(document.createTextNode(' when you launch: the platform fills it from your profile. Without one, this page has no value for it'));
    } else if (!c.resolved) {
      p.appendChild(document.createTextNode(' when the user\'s profile has it; the default otherwise'));
    }
    box.appendChild(p);
  }

  function fieldBox(o, path) {
    const box = el('div', 'field');
    box.setAttribute('data-path', JSON.stringify(path));
    box.setAttribute('data-key', fst.dotted(path));
    return box;
  }

  function describe(o, box, id) {
    if (o.description) {
      const d = el('p', 'field-desc', o.description);
      d.id = id + '-desc';
      box.appendChild(d);
    }
  }

  function errorSlot(box, id) {
    const e = el('p', 'field-error');
    e.id = id + '-err';
    e.setAttribute('aria-live', 'polite');
    e.hidden = true;
    box.appendChild(e);
  }

  function describedBy(input, o, id) {
    const ids = [id + '-err'];
    if (o.description) { ids.unshift(id + '-desc'); }
    input.setAttribute('aria-describedby', ids.join(' '));
  }

  function scalarText(v) {
    return typeof v === 'string' ? v : (v === null || v === undefined ? '' : String(v));
  }

  function typed(o, text) {
    const type = o.check ? o.check.type : o.type;
    if (type === 'number' || type === 'integer') {
      const x = Number(text);
      return text.trim() !== '' && !Number.isNaN(x) ? x : text;
    }
    return text;
  }

  function sliderOf(o) {
    return o.slider || { min: 0, max: 100, step: 1 };
  }

  function sliderValue(o, x) {
    const s = sliderOf(o);
    if ((o.check && o.check.type) === 'string') {
      return String(x) + (s.unit || '');
    }
    return x;
  }

  function sliderNumber(o, v) {
    const x = parseFloat(typeof v === 'string' ? v : String(v));
    return Number.isNaN(x) ? sliderOf(o).min : x;
  }

  // One slider end: a range input and a text input, kept in step; the text
  // takes any value, so that what the platform refuses can be typed.
  function sliderControl(o, path, box, id, caption) {
    const s = sliderOf(o);
    const row = el('div', 'slider');
    const range = el('input');
    range.type = 'range';
    range.min = String(s.min);
    range.max = String(s.max);
    range.step = String(s.step || 1);
    range.id = id;
    const text = el('input', 'slider-text');
    text.type = 'text';
    text.id = id + '-text';
    text.setAttribute('inputmode', 'decimal');
    text.setAttribute('aria-label', (caption || label(o)) + ' (typed value)');
    const [v] = fst.lookup(state.values, path);
    range.value = String(sliderNumber(o, v));
    text.value = scalarText(v);
    range.setAttribute('aria-valuetext', text.value);
    range.addEventListener('input', function () {
      const nv = sliderValue(o, Number(range.value));
      text.value = scalarText(nv);
      range.setAttribute('aria-valuetext', text.value);
      edited(path, nv);
    });
    text.addEventListener('input', function () {
      const nv = typed(o, text.value);
      range.value = String(sliderNumber(o, nv));
      range.setAttribute('aria-valuetext', text.value);
      edited(path, nv);
    });
    if (o.readOnly) { range.disabled = true; text.disabled = true; }
    describedBy(range, o, id);
    describedBy(text, o, id);
    row.appendChild(range);
    row.appendChild(text);
    const bounds = el('span', 'slider-bounds', fmt(s.min, s) + ' – ' + fmt(s.max, s));
    row.appendChild(bounds);
    box.appendChild(row);
  }

  function fmt(x, s) {
    return String(x) + (s.unit || '');
  }

  function titleLine(o, box, id, tag) {
    const l = el(tag || 'label', 'field-label', label(o));
    if (!tag) { l.htmlFor = id; }
    box.appendChild(l);
    return l;
  }

  function renderField(o, path, parent) {
    if (!o.check || o.check.const || (o.hiddenWhen && o.hiddenWhen.always)) {
      return;
    }
    const w = o.widget;
    if (w === 'group') {
      renderGroup(o, path, parent);
      return;
    }
    if (w === 'list') {
      renderList(o, path, parent);
      return;
    }
    if (pairs.up.has(o)) {
      // Shown with its down end, as one range slider.
      return;
    }
    const id = nextID();
    const box = fieldBox(o, path);
    if (pairs.down.has(o)) {
      const up = pairs.down.get(o);
      const upPath = up.key.slice();
      box.classList.add('field-range');
      const legend = el('p', 'field-label', label(o) + ' range' + (o.check.rangeId ? ' (' + o.check.rangeId + ')' : ''));
      box.appendChild(legend);
      describe(o, box, id);
      const ends = [[o, path], [up, upPath]];
      ends.forEach(function (end, i) {
        const eid = i === 0 ? id : nextID();
        const sub = el('div', 'range-end');
        sub.setAttribute('data-key', fst.dotted(end[1]));
        const cap = (i === 0 ? 'Lower end' : 'Upper end') + ': ' + label(end[0]);
        const l = el('label', 'range-caption', cap);
        l.htmlFor = eid;
        sub.appendChild(l);
        sliderControl(end[0], end[1], sub, eid, cap);
        errorSlot(sub, eid);
        notes(end[0], sub);
        box.appendChild(sub);
      });
      parent.appendChild(box);
      return;
    }
    const [v] = fst.lookup(state.values, path);
    let input;
    switch (w) {
      case 'checkbox': {
        box.classList.add('field-switch');
        input = el('input');
        input.type = 'checkbox';
        input.setAttribute('role', 'switch');
        input.id = id;
        input.checked = v === true;
        input.addEventListener('change', function () { edited(path, input.checked); });
        box.appendChild(input);
        titleLine(o, box, id);
        break;
      }
      case 'select': {
        titleLine(o, box, id);
        input = el('select');
        input.id = id;
        const choices = (o.choices || (o.check && o.check.choices) || []).slice();
        if (!choices.some(function (c) { return fst.equal(c, v); })) {
          choices.unshift(v);
        }
        choices.forEach(function (c, i) {
          const opt = el('option', '', typeof c === 'string' ? c : fst.show(c));
          opt.value = String(i);
          opt.selected = fst.equal(c, v);
          input.appendChild(opt);
        });
        input.addEventListener('change', function () { edited(path, fst.clone(choices[Number(input.value)])); });
        box.appendChild(input);
        break;
      }
      case 'slider':
      case 'range slider':
        titleLine(o, box, id);
        sliderControl(o, path, box, id);
        break;
      case 'text area':
      case 'yaml': {
        titleLine(o, box, id);
        input = el('textarea');
        input.id = id;
        input.rows = w === 'yaml' ? 4 : 3;
        const asJSON = w === 'yaml';
        input.value = asJSON ? JSON.stringify(v, null, 2) : scalarText(v);
        if (asJSON) {
          input.setAttribute('spellcheck', 'false');
        }
        input.addEventListener('input', function () {
          if (!asJSON) {
            edited(path, input.value);
            return;
          }
          try {
            edited(path, JSON.parse(input.value));
            box.classList.remove('field-unparsed');
          } catch (e) {
            box.classList.add('field-unparsed');
            showError(box, 'Not valid JSON (which is YAML): ' + e.message);
          }
        });
        box.appendChild(input);
        break;
      }
      default: {
        titleLine(o, box, id);
        input = el('input');
        input.id = id;
        const num = (o.check && (o.check.type === 'number' || o.check.type === 'integer'));
        input.type = w === 'password' ? 'password' : 'text';
        if (num) { input.setAttribute('inputmode', 'decimal'); }
        if (w === 'password') { input.autocomplete = 'off'; }
        input.value = scalarText(v);
        input.addEventListener('input', function () { edited(path, typed(o, input.value)); });
        box.appendChild(input);
      }
    }
    if (input) {
      if (o.readOnly) { input.disabled = true; }
      describedBy(input, o, id);
    }
    if (o.readOnly) {
      box.appendChild(el('p', 'field-note', 'Read-only'));
    }
    describe(o, box, id);
    notes(o, box);
    errorSlot(box, id);
    parent.appendChild(box);
  }

  function renderGroup(o, path, parent) {
    const d = el('details', 'form-group');
    d.open = true;
    d.setAttribute('data-path', JSON.stringify(path));
    const s = el('summary', '', label(o));
    d.appendChild(s);
    if (o.description) { d.appendChild(el('p', 'field-desc', o.description)); }
    t.children(o).forEach(function (ch) {
      renderField(ch, path.concat([ch.key[ch.key.length - 1]]), d);
    });
    parent.appendChild(d);
  }

  function renderList(o, path, parent) {
    const box = el('fieldset', 'form-list');
    box.setAttribute('data-path', JSON.stringify(path));
    box.setAttribute('data-key', fst.dotted(path));
    box.appendChild(el('legend', '', label(o)));
    if (o.description) { box.appendChild(el('p', 'field-desc', o.description)); }
    const itemsBox = el('div', 'form-items');
    box.appendChild(itemsBox);
    const items = t.items(o);
    const id = nextID();
    function fill() {
      itemsBox.textContent = '';
      const [list] = fst.lookup(state.values, path);
      (Array.isArray(list) ? list : []).forEach(function (_, i) {
        const item = el('div', 'form-item');
        const head = el('div', 'form-item-head');
        head.appendChild(el('span', '', label(o) + ' ' + (i + 1)));
        const rm = el('button', 'button-small', 'Remove');
        rm.type = 'button';
        rm.setAttribute('aria-label', 'Remove item ' + (i + 1) + ' of ' + label(o));
        rm.disabled = !!o.readOnly;
        rm.addEventListener('click', function () {
          const [cur] = fst.lookup(state.values, path);
          cur.splice(i, 1);
          fill();
          refresh();
        });
        head.appendChild(rm);
        item.appendChild(head);
        const ip = path.concat([String(i)]);
        if (items) {
          if (items.widget === 'group') {
            // What is refused of the item itself (a property it lacks)
            // shows under its heading; its fields' own refusals beside
            // them.
            item.setAttribute('data-key', fst.dotted(ip));
            errorSlot(item, id + '-' + i);
            t.children(items).forEach(function (ch) {
              renderField(ch, ip.concat([ch.key[ch.key.length - 1]]), item);
            });
          } else {
            renderField(items, ip, item);
          }
        }
        itemsBox.appendChild(item);
      });
    }
    fill();
    const add = el('button', 'button-small', 'Add');
    add.type = 'button';
    add.setAttribute('aria-label', 'Add an item to ' + label(o));
    add.disabled = !!o.readOnly || !items;
    add.addEventListener('click', function () {
      const [cur] = fst.lookup(state.values, path);
      if (!Array.isArray(cur)) { return; }
      cur.push(fst.clone(items.value === undefined ? null : items.value));
      fill();
      refresh();
    });
    box.appendChild(add);
    errorSlot(box, id);
    parent.appendChild(box);
  }

  // showError shows the refusal of a box's value in its slot, and marks
  // its own controls (not those of the fields inside it) invalid; false
  // when the box has no slot.
  function showError(box, msg) {
    const slot = box.querySelector(':scope > .field-error');
    if (!slot) { return false; }
    slot.textContent = msg;
    slot.hidden = msg === '';
    box.classList.toggle('field-invalid', msg !== '');
    box.querySelectorAll(':scope > input, :scope > select, :scope > textarea, :scope > .slider > input').forEach(function (c) {
      if (msg) { c.setAttribute('aria-invalid', 'true'); } else { c.removeAttribute('aria-invalid'); }
    });
    return true;
  }

  // keyLabel names a value by its fields' labels, an item by its number
  // as the list labels it (Volumes 2 › Name), for a refusal shown away
  // from its field.
  function keyLabel(key) {
    const path = key.split(/(?<!\\)\./).map(function (k) { return k.split('\\.').join('.'); });
    const okey = fst.optionKey(path);
    const parts = [];
    for (let i = 0; i < path.length; i++) {
      if (okey[i] === fst.ITEMS && parts.length > 0) {
        parts[parts.length - 1] += ' ' + (Number(path[i]) + 1);
        continue;
      }
      const o = t.option(okey.slice(0, i + 1));
      parts.push(o ? label(o) : path[i]);
    }
    return parts.join(' › ');
  }

  // Tabs: the top-level groups, as in the platform; top-level fields that
  // are no group come first, under "General". They never wrap into rows:
  // one row that scrolls sideways, or, for many groups in a wide form, a
  // column beside the panel (form.css). The arrow keys move along either,
  // Home and End go to the ends.
  const tabs = el('div', 'form-tabs');
  tabs.setAttribute('role', 'tablist');
  tabs.setAttribute('aria-label', 'Option groups');
  const panels = el('div', 'form-panels');
  const general = [];
  const groups = [];
  t.top.forEach(function (o) {
    if (o.widget === 'group') { groups.push(o); } else { general.push(o); }
  });
  const tabList = [];
  function addTab(name, path, fill) {
    const i = tabList.length;
    const tab = el('button', 'form-tab', name);
    tab.type = 'button';
    tab.id = 'form-tab-' + i;
    tab.setAttribute('role', 'tab');
    tab.setAttribute('aria-controls', 'form-panel-' + i);
    const panel = el('div', 'form-panel');
    panel.id = 'form-panel-' + i;
    panel.setAttribute('role', 'tabpanel');
    panel.setAttribute('aria-labelledby', tab.id);
    panel.tabIndex = 0;
    if (path) {
      tab.setAttribute('data-path', JSON.stringify(path));
      tab.setAttribute('data-tab-key', fst.dotted(path));
    }
    fill(panel);
    tab.addEventListener('click', function () { select(i, true); });
    tab.addEventListener('keydown', function (ev) {
      let k = -1;
      if (ev.key === 'ArrowRight' || ev.key === 'ArrowDown') { k = next(i, 1); }
      if (ev.key === 'ArrowLeft' || ev.key === 'ArrowUp') { k = next(i, -1); }
      if (ev.key === 'Home') { k = next(tabList.length - 1, 1); }
      if (ev.key === 'End') { k = next(0, -1); }
      if (k >= 0) { ev.preventDefault(); select(k, true); tabList[k].tab.focus(); }
    });
    tabs.appendChild(tab);
    panels.appendChild(panel);
    tabList.push({ tab: tab, panel: panel });
  }
  function next(i, d) {
    for (let k = 1; k <= tabList.length; k++) {
      const j = (i + d * k + tabList.length * k) % tabList.length;
      if (!tabList[j].tab.hidden) { return j; }
    }
    return i;
  }
  let current = 0;
  // select shows tab i's panel; reveal scrolls the tab into the tab row's
  // view, when the reader chose it.
  function select(i, reveal) {
    current = i;
    tabList.forEach(function (x, j) {
      const on = j === i;
      x.tab.setAttribute('aria-selected', on ? 'true' : 'false');
      x.tab.tabIndex = on ? 0 : -1;
      x.panel.hidden = !on;
    });
    if (reveal) {
      tabList[i].tab.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    }
  }
  if (general.length > 0) {
    addTab('General', null, function (panel) {
      general.forEach(function (o) { renderField(o, [o.key[0]], panel); });
    });
  }
  groups.forEach(function (o) {
    if (!o.check || (o.hiddenWhen && o.hiddenWhen.always)) { return; }
    addTab(label(o), [o.key[0]], function (panel) {
      if (o.description) { panel.appendChild(el('p', 'field-desc', o.description)); }
      t.children(o).forEach(function (ch) {
        renderField(ch, [o.key[0], ch.key[ch.key.length - 1]], panel);
      });
    });
  });
  root.textContent = '';
  root.classList.toggle('form-many-tabs', tabList.length > manyTabs);
  root.appendChild(tabs);
  root.appendChild(panels);
  select(0);
  // The stylesheet lays many tabs out as a column when the form is wide.
  function orient() {
    const vertical = getComputedStyle(tabs).flexDirection === 'column';
    tabs.setAttribute('aria-orientation', vertical ? 'vertical' : 'horizontal');
  }
  orient();
  if (window.ResizeObserver) {
    new ResizeObserver(orient).observe(root);
  }

  // The values document, and the commands that use it.
  const out = document.querySelector('[data-form-output]');
  const yaml = document.querySelector('[data-form-yaml]');
  const count = document.querySelector('[data-form-count]');
  // The refusals of values no field shows (hidden, yet sent), named.
  const elsewhere = el('ul', 'form-elsewhere');
  elsewhere.hidden = true;
  if (count) { count.after(elsewhere); }
  const modes = Array.prototype.slice.call(document.querySelectorAll('[data-form-mode]'));
  modes.forEach(function (b) {
    b.addEventListener('click', function () {
      state.full = b.getAttribute('data-form-mode') === 'full';
      refresh();
    });
  });
  const download = document.querySelector('[data-form-download]');
  if (download) {
    download.addEventListener('click', function () {
      const blob = new Blob([yaml.textContent], { type: 'application/yaml' });
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = 'values.yaml';
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(function () { URL.revokeObjectURL(a.href); }, 1000);
    });
  }
  if (out) { out.hidden = false; }
  // Says what the full document leaves to the profile, when it does.
  const fullNote = el('p', 'field-note');
  fullNote.hidden = true;
  if (modes.length > 0) { modes[0].parentNode.after(fullNote); }

  // The link to the platform's launcher carries the changes: the build
  // wrote it without any.
  const launch = document.querySelector('[data-form-launch]');
  const launchBase = launch ? launch.getAttribute('href') : '';
  const launchLeft = document.querySelector('[data-form-launch-left]');
  const isSecret = launchlink.secrets(launchlink.passwordKeys(model));
  function refreshLaunch() {
    if (!launch) { return; }
    const c = launchlink.changes(state.defaults, state.values, isSecret);
    launch.setAttribute('href', launchlink.withEntries(launchBase, c.entries));
    if (!launchLeft) { return; }
    const list = launchLeft.querySelector('ul');
    if (!list) { return; }
    list.textContent = '';
    c.left.forEach(function (o) {
      const li = el('li');
      li.appendChild(el('code', '', o.key));
      li.appendChild(document.createTextNode(': ' + o.reason));
      list.appendChild(li);
    });
    launchLeft.hidden = c.left.length === 0;
  }

  function refresh() {
    const hidden = new Set(fst.hiddenKeys(t, state.values).map(function (p) { return JSON.stringify(p); }));
    root.querySelectorAll('[data-path]').forEach(function (e) {
      e.hidden = hidden.has(e.getAttribute('data-path'));
    });
    tabList.forEach(function (x) {
      const p = x.tab.getAttribute('data-path');
      x.tab.hidden = p !== null && hidden.has(p);
    });
    if (tabList[current] && tabList[current].tab.hidden) {
      select(next(current, 1));
    }
    const errors = fst.check(t, model, state.values);
    // Each refused value counts once, wherever it shows: a range's down
    // end is keyed on its box and on its end.
    const shown = new Set();
    root.querySelectorAll('[data-key]').forEach(function (e) {
      if (e.classList.contains('field-unparsed')) { return; }
      const key = e.getAttribute('data-key');
      const msg = errors[key] || '';
      // A field the form's conditions hide keeps its slot, but the
      // refusal is listed apart: nobody sees that field. (One in another
      // tab is there when the tab is opened.)
      const where = e.closest('[data-path]');
      if (showError(e, msg) && msg && !(where && where.hidden)) {
        shown.add(key);
      }
    });
    const keys = Object.keys(errors);
    const bad = keys.length;
    elsewhere.textContent = '';
    keys.filter(function (k) { return !shown.has(k); }).sort().forEach(function (k) {
      const li = el('li');
      li.appendChild(el('strong', '', keyLabel(k)));
      li.appendChild(document.createTextNode(' (not shown): ' + errors[k]));
      elsewhere.appendChild(li);
    });
    elsewhere.hidden = elsewhere.childNodes.length === 0;
    const doc = state.full ? fst.fullDocument(state.defaults, state.values, profile) : fst.changes(state.defaults, state.values);
    if (yaml) { yaml.textContent = fst.toYAML(doc); }
    const left = state.full ? profile.filter(function (k) { return fst.lookup(state.values, k)[1] && !fst.lookup(doc, k)[1]; }) : [];
    fullNote.hidden = left.length === 0;
    fullNote.textContent = left.length === 0 ? '' : 'Left out, as your profile fills them: ' + left.map(fst.dotted).join(', ') +
      '. Given to launch, they would replace your profile\'s; helm install takes the chart\'s values.yaml for them.';
    modes.forEach(function (b) {
      b.setAttribute('aria-pressed', (b.getAttribute('data-form-mode') === 'full') === state.full ? 'true' : 'false');
    });
    if (count) {
      count.textContent = bad === 0 ? '' : bad + (bad === 1 ? ' value' : ' values') + ' would be refused at launch.';
    }
    refreshLaunch();
  }
  refresh();
  root.setAttribute('data-form-ready', String(Math.round((performance.now() - began) * 10) / 10));
}

// pairRanges pairs range slider ends as the platform does: one by one in
// form order, each down end with the first free up end of its range id.
function pairRanges(model) {
  const down = new Map();
  const up = new Set();
  const ups = model.options.filter(function (o) {
    return o.slider && o.slider.extremity === 'up' && o.slider.rangeId && o.key.indexOf(fst.ITEMS) < 0;
  });
  model.options.forEach(function (o) {
    if (!o.slider || o.slider.extremity !== 'down' || !o.slider.rangeId || o.key.indexOf(fst.ITEMS) >= 0) {
      return;
    }
    const u = ups.find(function (x) { return !up.has(x) && x.slider.rangeId === o.slider.rangeId; });
    if (u) {
      up.add(u);
      down.set(o, u);
    }
  });
  return { down: down, up: up };
}
