// Filtering of the chart cards on the catalog's index page.
//
// The page is complete without this script: every card is listed and the
// filter bar stays hidden. The script reads what the cards show (name,
// description, keywords) and the chips' data-keyword attributes, so it runs
// under the site's Content-Security-Policy (script-src 'self', no inline
// code). The filter is kept in the address (?q=...&keyword=...) so that a
// filtered view can be shared.
//
// A keystroke must stay within a frame (16 ms) on a catalog of hundreds of
// charts. The text of every card is read once. A card the filter leaves
// out is taken out of the list, which costs the browser far less than
// hiding it, and only the cards whose state changes are touched. Cards that
// come back are put back a batch per frame, the first batch (the top of
// the list, what the reader sees) at once: hundreds of cards in one frame
// cost several frames of style and layout. The address is updated once
// typing pauses.
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
  var chips = Array.prototype.slice.call(bar.querySelectorAll('[data-keyword]'));
  var keyword = '';
  var statusText = '';
  var batch = 24;
  var frame = 0;
  var timer = 0;

  function text(node) {
    return node ? node.textContent.replace(/\s+/g, ' ').trim() : '';
  }

  // index holds every card in page order: inList tells whether it is in
  // the list now, match whether the filter keeps it.
  var index = Array.prototype.map.call(list.children, function (card) {
    var keywords = Array.prototype.map.call(card.querySelectorAll('.tags > li'), function (li) {
      return text(li).toLowerCase();
    });
    var words = [card.getAttribute('data-name') || '', text(card.querySelector('.card-desc'))].concat(keywords);
    return {
      card: card,
      text: words.join(' ').toLowerCase(),
      keywords: keywords,
      match: true,
      inList: true
    };
  });

  // restore puts back up to batch of the cards the filter keeps, in page
  // order, each before the next card of the list; the others at the next
  // frame.
  function restore() {
    frame = 0;
    var chosen = [];
    for (var i = 0; i < index.length; i++) {
      if (index[i].match && !index[i].inList) {
        if (chosen.length === batch) {
          frame = window.requestAnimationFrame(restore);
          break;
        }
        chosen.push(i);
      }
    }
    var next = null;
    for (var j = index.length - 1, k = chosen.length - 1; j >= 0 && k >= 0; j--) {
      var entry = index[j];
      if (j === chosen[k]) {
        list.insertBefore(entry.card, next);
        entry.inList = true;
        k--;
      }
      if (entry.inList) {
        next = entry.card;
      }
    }
  }

  function terms() {
    return input.value.toLowerCase().split(/\s+/).filter(function (t) { return t !== ''; });
  }

  function remember() {
    timer = 0;
    if (!window.history || !window.history.replaceState) {
      return;
    }
    var params = new URLSearchParams(window.location.search);
    if (input.value.trim() !== '') { params.set('q', input.value.trim()); } else { params.delete('q'); }
    if (keyword !== '') { params.set('keyword', keyword); } else { params.delete('keyword'); }
    var query = params.toString();
    window.history.replaceState(null, '', window.location.pathname + (query ? '?' + query : '') + window.location.hash);
  }

  function rememberSoon() {
    window.clearTimeout(timer);
    timer = window.setTimeout(remember, 300);
  }

  function apply() {
    var words = terms();
    var shown = 0;
    for (var i = 0; i < index.length; i++) {
      var entry = index[i];
      var match = keyword === '' || entry.keywords.indexOf(keyword) !== -1;
      for (var j = 0; match && j < words.length; j++) {
        match = entry.text.indexOf(words[j]) !== -1;
      }
      entry.match = match;
      if (!match && entry.inList) {
        list.removeChild(entry.card);
        entry.inList = false;
      }
      if (match) {
        shown++;
      }
    }
    if (frame) {
      window.cancelAnimationFrame(frame);
    }
    restore();
    var total = index.length;
    var next = shown === total
      ? total + (total === 1 ? ' chart' : ' charts')
      : shown + ' of ' + total + ' charts';
    if (status && next !== statusText) {
      status.textContent = next;
      statusText = next;
    }
    if (empty) {
      var hide = shown !== 0 || total === 0;
      if (empty.hidden !== hide) {
        empty.hidden = hide;
      }
    }
  }

  function pressChips() {
    chips.forEach(function (chip) {
      chip.setAttribute('aria-pressed', chip.getAttribute('data-keyword') === keyword ? 'true' : 'false');
    });
  }

  input.addEventListener('input', function () { apply(); rememberSoon(); });
  input.addEventListener('keydown', function (e) {
    if (e.key === 'Escape') {
      input.value = '';
      apply();
      rememberSoon();
    }
  });
  chips.forEach(function (chip) {
    chip.addEventListener('click', function () {
      var k = chip.getAttribute('data-keyword') || '';
      keyword = keyword === k ? '' : k;
      pressChips();
      apply();
      remember();
    });
  });
  // A link followed before the address caught up keeps the filter.
  window.addEventListener('pagehide', function () {
    if (timer) {
      window.clearTimeout(timer);
      remember();
    }
  });

  var params = new URLSearchParams(window.location.search);
  input.value = params.get('q') || '';
  var wanted = (params.get('keyword') || '').toLowerCase();
  if (chips.some(function (c) { return c.getAttribute('data-keyword') === wanted; })) {
    keyword = wanted;
  }
  bar.hidden = false;
  pressChips();
  apply();
})();
