// The options reference of a chart page: a search over the options' keys,
// titles and descriptions, and top-level groups that fold.
//
// The page is complete without this script: every row is listed, and the
// search box and the toggles stay hidden. With it, a long reference (more
// than foldAbove rows) opens folded: its groups' rows, each saying how many
// options it holds, and the options outside groups. The rows are in the
// form's order, each group's descendants right after it, indented by their
// depth (class d0 to d5); each top-level group's rows are one <tbody>. A search shows
// the matching rows and the groups that hold them, whatever is folded.
// Following a link to a row (or to anything in a closed <details>) unfolds
// what hides it.
(function () {
  'use strict';

  var foldAbove = 30;

  function unfold(target) {
    for (var d = target.closest('details'); d; d = d.parentElement && d.parentElement.closest('details')) {
      d.open = true;
    }
  }

  function targetOf(hash) {
    if (!hash || hash.length < 2) {
      return null;
    }
    try {
      return document.getElementById(decodeURIComponent(hash.slice(1)));
    } catch (e) {
      return null;
    }
  }

  var table = document.querySelector('[data-options]');
  var tools = document.querySelector('[data-opt-tools]');
  if (!table || !tools) {
    var onlyDetails = function () {
      var t = targetOf(window.location.hash);
      if (t) {
        unfold(t);
      }
    };
    window.addEventListener('hashchange', onlyDetails);
    onlyDetails();
    return;
  }
  var input = document.getElementById('opt-filter');
  var status = document.getElementById('opt-status');
  var empty = document.getElementById('opt-empty');

  function text(node) {
    return node ? node.textContent.replace(/\s+/g, ' ').trim() : '';
  }

  function depthOf(row) {
    var m = /(?:^|\s)d(\d)(?:\s|$)/.exec(row.className);
    return m ? Number(m[1]) : 0;
  }

  var total = 0;
  var sections = Array.prototype.map.call(table.querySelectorAll('tbody[data-opt-section]'), function (tbody) {
    var toggle = tbody.querySelector('[data-opt-toggle]');
    var entries = Array.prototype.map.call(tbody.rows, function (row) {
      var words = [text(row.querySelector('.path')), text(row.querySelector('.opt-title')), text(row.querySelector('.opt-desc'))];
      return { row: row, depth: depthOf(row), text: words.join(' ').toLowerCase(), shown: true };
    });
    total += entries.length;
    return { toggle: toggle, entries: entries, open: true };
  });
  var folded = total > foldAbove;

  function terms() {
    return input.value.toLowerCase().split(/\s+/).filter(function (t) { return t !== ''; });
  }

  function show(entry, visible) {
    if (entry.shown !== visible) {
      entry.row.hidden = !visible;
      entry.shown = visible;
    }
  }

  function apply() {
    var words = terms();
    var matched = 0;
    sections.forEach(function (s) {
      var entries = s.entries;
      if (words.length === 0) {
        entries.forEach(function (e, i) { show(e, !s.toggle || i === 0 || s.open); });
        return;
      }
      // Walking back from the last row, a row above a match and less
      // indented than every row shown since is one of the groups that
      // hold it; pending is that indent (none before the first match).
      var pending = -1;
      for (var i = entries.length - 1; i >= 0; i--) {
        var e = entries[i];
        var match = words.every(function (w) { return e.text.indexOf(w) !== -1; });
        if (match) {
          matched++;
          pending = pending < 0 ? e.depth : Math.min(pending, e.depth);
          show(e, true);
        } else if (e.depth < pending) {
          pending = e.depth;
          show(e, true);
        } else {
          show(e, false);
        }
      }
    });
    var message = words.length === 0 ? '' : matched + ' of ' + total + (total === 1 ? ' option matches' : ' options match');
    if (status.textContent !== message) {
      status.textContent = message;
    }
    var hide = words.length === 0 || matched !== 0;
    if (empty.hidden !== hide) {
      empty.hidden = hide;
    }
  }

  function setOpen(s, open) {
    s.open = open;
    if (s.toggle) {
      s.toggle.setAttribute('aria-expanded', open ? 'true' : 'false');
    }
  }

  sections.forEach(function (s) {
    if (!s.toggle) {
      return;
    }
    var options = s.entries.filter(function (e) { return !e.row.classList.contains('opt-group'); }).length;
    var count = document.createElement('span');
    count.className = 'opt-count';
    count.textContent = options + (options === 1 ? ' option' : ' options');
    var title = s.toggle.parentNode.querySelector('.opt-title');
    s.toggle.parentNode.insertBefore(count, title ? title.nextSibling : null);
    setOpen(s, !folded);
    s.toggle.hidden = false;
    s.toggle.addEventListener('click', function () {
      setOpen(s, !s.open);
      apply();
    });
  });
  Array.prototype.forEach.call(tools.querySelectorAll('[data-opt-all]'), function (button) {
    button.addEventListener('click', function () {
      var open = button.getAttribute('data-opt-all') === 'expand';
      sections.forEach(function (s) { setOpen(s, open); });
      apply();
    });
  });
  input.addEventListener('input', apply);
  input.addEventListener('keydown', function (e) {
    if (e.key === 'Escape') {
      input.value = '';
      apply();
    }
  });

  // reveal shows the target of the address: its section unfolded, the
  // search cleared when it hides it, its <details> open.
  function reveal() {
    var t = targetOf(window.location.hash);
    if (!t) {
      return;
    }
    unfold(t);
    var moved = false;
    sections.forEach(function (s) {
      s.entries.forEach(function (e) {
        if (e.row === t && !e.shown) {
          if (input.value !== '') {
            input.value = '';
          }
          setOpen(s, true);
          moved = true;
        }
      });
    });
    if (moved) {
      apply();
      t.scrollIntoView();
    }
  }

  tools.hidden = false;
  apply();
  window.addEventListener('hashchange', reveal);
  reveal();
})();
