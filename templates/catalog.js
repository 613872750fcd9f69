// Filtering of the chart cards on the catalog's index page.
//
// The page is complete without this script: every card is listed and the
// filter bar stays hidden. The script only reads data attributes the
// templates write (data-search, data-keywords, data-keyword), so it runs
// under the site's Content-Security-Policy (script-src 'self', no inline
// code). The filter is kept in the address (?q=...&keyword=...) so that a
// filtered view can be shared.
(function () {
  'use strict';

  var list = document.querySelector('[data-catalog]');
  var bar = document.querySelector('[data-filters]');
  if (!list || !bar) {
    return;
  }
  var input = document.getElementById('filter-text');
  var status = document.getElementById('filter-status');
  var empty = document.getElementById('filter-empty');
  var cards = Array.prototype.slice.call(list.querySelectorAll('[data-card]'));
  var chips = Array.prototype.slice.call(bar.querySelectorAll('[data-keyword]'));
  var keyword = '';

  function keywordsOf(card) {
    try {
      var v = JSON.parse(card.getAttribute('data-keywords') || '[]');
      return Array.isArray(v) ? v : [];
    } catch (e) {
      return [];
    }
  }

  var index = cards.map(function (card) {
    return {
      card: card,
      text: (card.getAttribute('data-search') || '').toLowerCase(),
      keywords: keywordsOf(card)
    };
  });

  function terms() {
    return input.value.toLowerCase().split(/\s+/).filter(function (t) { return t !== ''; });
  }

  function remember() {
    if (!window.history || !window.history.replaceState) {
      return;
    }
    var params = new URLSearchParams(window.location.search);
    if (input.value.trim() !== '') { params.set('q', input.value.trim()); } else { params.delete('q'); }
    if (keyword !== '') { params.set('keyword', keyword); } else { params.delete('keyword'); }
    var query = params.toString();
    window.history.replaceState(null, '', window.location.pathname + (query ? '?' + query : '') + window.location.hash);
  }

  function apply() {
    var words = terms();
    var shown = 0;
    index.forEach(function (entry) {
      var match = words.every(function (w) { return entry.text.indexOf(w) !== -1; }) &&
        (keyword === '' || entry.keywords.indexOf(keyword) !== -1);
      entry.card.hidden = !match;
      if (match) {
        shown++;
      }
    });
    chips.forEach(function (chip) {
      chip.setAttribute('aria-pressed', chip.getAttribute('data-keyword') === keyword ? 'true' : 'false');
    });
    if (status) {
      status.textContent = shown === cards.length
        ? cards.length + (cards.length === 1 ? ' chart' : ' charts')
        : shown + ' of ' + cards.length + ' charts';
    }
    if (empty) {
      empty.hidden = shown !== 0 || cards.length === 0;
    }
  }

  input.addEventListener('input', function () { apply(); remember(); });
  input.addEventListener('keydown', function (e) {
    if (e.key === 'Escape') {
      input.value = '';
      apply();
      remember();
    }
  });
  chips.forEach(function (chip) {
    chip.addEventListener('click', function () {
      var k = chip.getAttribute('data-keyword') || '';
      keyword = keyword === k ? '' : k;
      apply();
      remember();
    });
  });

  var params = new URLSearchParams(window.location.search);
  input.value = params.get('q') || '';
  var wanted = params.get('keyword') || '';
  if (chips.some(function (c) { return c.getAttribute('data-keyword') === wanted; })) {
    keyword = wanted;
  }
  bar.hidden = false;
  apply();
})();
