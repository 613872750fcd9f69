// catalogist serve adds this script to the pages it serves (never to a
// built site). It reloads the page after each good build and shows, in
// banners, the lint findings of the page's chart and the failure of the
// last build. Everything it shows comes from the catalog's files: it is
// written with textContent only, under the pages' strict
// Content-Security-Policy.
(function () {
  'use strict';

  var base = '/__catalogist/';
  var script = document.currentScript;
  // The build this page was served from.
  var pageBuild = script ? script.getAttribute('data-build') : '';

  var link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = base + 'live.css';
  document.head.appendChild(link);

  // chartName is the chart whose page this is: /charts/<name>/.
  function chartName() {
    var m = /^\/charts\/([^/]+)\/(?:index\.html)?$/.exec(location.pathname);
    if (!m) {
      return null;
    }
    try {
      return decodeURIComponent(m[1]);
    } catch (e) {
      return null;
    }
  }

  function isIndex() {
    return location.pathname === '/' || location.pathname === '/index.html';
  }

  function el(tag, className, text) {
    var e = document.createElement(tag);
    if (className) {
      e.className = className;
    }
    if (text !== undefined) {
      e.textContent = text;
    }
    return e;
  }

  function plural(n, word) {
    return n + ' ' + word + (n === 1 ? '' : 's');
  }

  // findingItem is one finding: where, how serious, what.
  function findingItem(f, chart) {
    var li = el('li', 'catalogist-live-finding catalogist-live-sev-' + f.severity);
    var where = f.file + ':' + f.line + (f.column ? ':' + f.column : '');
    li.appendChild(el('code', 'catalogist-live-where', where));
    li.appendChild(document.createTextNode(' '));
    li.appendChild(el('span', 'catalogist-live-severity', f.severity));
    if (chart) {
      li.appendChild(document.createTextNode(' '));
      var a = el('a', 'catalogist-live-chart', chart);
      a.href = '/charts/' + encodeURIComponent(chart) + '/';
      li.appendChild(a);
    }
    li.appendChild(document.createTextNode(' ' + f.message + ' '));
    li.appendChild(el('span', 'catalogist-live-rule', '[' + f.rule + ']'));
    return li;
  }

  // A banner folds to its title: a long one (more than foldAbove
  // findings) starts folded, so that the page stays in sight. What the
  // reader opened or folded is kept across the page's reloads (by the
  // banner's title, which holds the number of findings: a new number is a
  // new banner).
  var foldAbove = 3;

  function remembered(key) {
    try {
      return window.sessionStorage.getItem('catalogist-live:' + key);
    } catch (e) {
      return null;
    }
  }

  function remember(key, open) {
    try {
      window.sessionStorage.setItem('catalogist-live:' + key, open ? 'open' : 'folded');
    } catch (e) { /* storage refused: the fold is not kept */ }
  }

  // banner returns the banner and the element its content goes in.
  function banner(kind, role, title, items) {
    var b = el('section', 'catalogist-live-banner catalogist-live-' + kind);
    b.setAttribute('role', role);
    b.setAttribute('aria-label', title);
    var d = el('details', 'catalogist-live-details');
    var key = kind + ':' + location.pathname + ':' + title;
    var kept = remembered(key);
    d.open = kept ? kept === 'open' : items <= foldAbove;
    d.addEventListener('toggle', function () { remember(key, d.open); });
    d.appendChild(el('summary', 'catalogist-live-title', title));
    b.appendChild(d);
    return { banner: b, body: d };
  }

  function findingsBanner(kind, title, findings) {
    var b = banner(kind, 'status', title, findings.length);
    var ul = el('ul', 'catalogist-live-findings-list');
    findings.forEach(function (f) {
      ul.appendChild(findingItem(f));
    });
    b.body.appendChild(ul);
    return b.banner;
  }

  function worst(findings) {
    var order = ['note', 'warning', 'error'];
    return findings.reduce(function (w, f) {
      return order.indexOf(f.severity) > order.indexOf(w) ? f.severity : w;
    }, 'note');
  }

  function render(st) {
    var old = document.querySelectorAll('.catalogist-live-banner');
    for (var i = 0; i < old.length; i++) {
      old[i].remove();
    }
    var banners = [];
    var name = chartName();
    if (!st.ok) {
      // The errors that failed the build, but for the page's chart's,
      // which its own banner lists.
      var failed = [];
      Object.keys(st.charts || {}).sort().forEach(function (other) {
        if (other === name) {
          return;
        }
        st.charts[other].forEach(function (f) {
          if (f.severity === 'error') {
            failed.push([f, other]);
          }
        });
      });
      var fail = banner('failed', 'alert', st.serving
        ? 'The last build failed: this page is from the last good build.'
        : 'No build has succeeded yet.', failed.length);
      fail.body.appendChild(el('pre', 'catalogist-live-message', st.error || ''));
      var ul = el('ul', 'catalogist-live-findings-list');
      failed.forEach(function (x) {
        ul.appendChild(findingItem(x[0], x[1]));
      });
      if (ul.firstChild) {
        fail.body.appendChild(ul);
      }
      banners.push(fail.banner);
    }
    var own = name && st.charts && Object.prototype.hasOwnProperty.call(st.charts, name) ? st.charts[name] : [];
    if (own.length) {
      var fb = findingsBanner('findings', plural(own.length, 'lint finding') + ' in chart ' + name, own);
      fb.classList.add('catalogist-live-worst-' + worst(own));
      fb.setAttribute('data-chart', name);
      banners.push(fb);
    }
    if (isIndex() && st.catalog && st.catalog.length) {
      banners.push(findingsBanner('findings', plural(st.catalog.length, 'lint finding') + ' outside the charts', st.catalog));
    }
    for (var j = banners.length - 1; j >= 0; j--) {
      document.body.insertBefore(banners[j], document.body.firstChild);
    }
  }

  function refresh() {
    fetch(base + 'status', { cache: 'no-store' })
      .then(function (r) { return r.json(); })
      .then(render)
      .catch(function () { /* the server stopped: the event stream retries */ });
  }

  var events = new EventSource(base + 'events');
  events.addEventListener('build', function (e) {
    var d;
    try {
      d = JSON.parse(e.data);
    } catch (err) {
      return;
    }
    // A good build other than the page's: the page may have changed.
    if (d.ok && d.build !== pageBuild) {
      events.close();
      location.reload();
      return;
    }
    refresh();
  });
})();
