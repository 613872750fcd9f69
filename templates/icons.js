// Chart icons given as https URLs live on other servers: when one fails to
// load, show the catalog's default icon rather than a broken image. Icons
// published with the site never fail; this only guards remote ones. The
// default icon sits next to this script, whatever the page's depth.
(function () {
  'use strict';

  var script = document.currentScript;
  var fallback = new URL('default-icon.svg', script ? script.src : document.baseURI).href;

  function replace(img) {
    if (img.src !== fallback) {
      img.src = fallback;
    }
  }

  function guard(img) {
    if (img.complete && img.naturalWidth === 0) {
      replace(img);
      return;
    }
    img.addEventListener('error', function () { replace(img); }, { once: true });
  }

  Array.prototype.forEach.call(document.querySelectorAll('img.icon'), guard);
})();
