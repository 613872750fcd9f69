// Copy buttons on the snippets of a page (every pre.snippet, also those a
// script adds later): a button that copies the snippet's text as shown,
// with the clipboard API where the page may use it (https, localhost),
// else by selecting the text and asking the browser to copy it. The page
// is complete without this script: the snippets can be selected by hand.
(function () {
  'use strict';

  var status = null;

  // say tells screen readers what happened, once per click.
  function say(message) {
    if (!status) {
      status = document.createElement('p');
      status.className = 'visually-hidden';
      status.setAttribute('role', 'status');
      document.body.appendChild(status);
    }
    status.textContent = '';
    window.setTimeout(function () { status.textContent = message; }, 50);
  }

  function select(node) {
    var range = document.createRange();
    range.selectNodeContents(node);
    var sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    return sel;
  }

  // fallback copies by selection; the text stays selected when the browser
  // refuses, for the reader to copy it.
  function fallback(pre) {
    var sel = select(pre);
    var ok = false;
    try {
      ok = document.execCommand('copy');
    } catch (e) {
      ok = false;
    }
    if (ok) {
      sel.removeAllRanges();
    }
    return ok;
  }

  function done(button, ok) {
    button.textContent = ok ? 'Copied' : 'Press Ctrl+C';
    say(ok ? 'Copied to the clipboard' : 'The snippet is selected: press Ctrl+C (or ⌘C) to copy it');
    window.clearTimeout(button.copyTimer);
    button.copyTimer = window.setTimeout(function () { button.textContent = 'Copy'; }, 2000);
  }

  function copy(pre, button) {
    var text = pre.textContent;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(
        function () { done(button, true); },
        function () { done(button, fallback(pre)); });
      return;
    }
    done(button, fallback(pre));
  }

  function add(pre) {
    if (pre.hasAttribute('data-copy') || !pre.parentNode) {
      return;
    }
    pre.setAttribute('data-copy', '');
    var wrap = document.createElement('div');
    wrap.className = 'snippet-wrap';
    pre.parentNode.insertBefore(wrap, pre);
    wrap.appendChild(pre);
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy';
    button.textContent = 'Copy';
    button.title = 'Copy to the clipboard';
    button.addEventListener('click', function () { copy(pre, button); });
    wrap.appendChild(button);
  }

  function scan(root) {
    if (root.matches && root.matches('pre.snippet')) {
      add(root);
      return;
    }
    if (root.querySelectorAll) {
      Array.prototype.forEach.call(root.querySelectorAll('pre.snippet'), add);
    }
  }

  scan(document);
  if (window.MutationObserver) {
    new MutationObserver(function (records) {
      records.forEach(function (r) {
        Array.prototype.forEach.call(r.addedNodes, function (n) {
          if (n.nodeType === 1) {
            scan(n);
          }
        });
      });
    }).observe(document.body, { childList: true, subtree: true });
  }
})();
