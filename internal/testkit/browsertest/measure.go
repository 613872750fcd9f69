package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/chromedp/chromedp"
)

// Weight is what the tab's current page has loaded so far, in bytes of
// response bodies as sent (before decompression), by kind.
type Weight struct {
	Document, Scripts, Styles, Images, Other int64
	// Requests is the number of responses counted, the document included.
	Requests int
}

// Total is every byte the page loaded.
func (w Weight) Total() int64 {
	return w.Document + w.Scripts + w.Styles + w.Images + w.Other
}

// WithoutImages is the page's own weight: what it costs whatever the
// catalog's icons and screenshots.
func (w Weight) WithoutImages() int64 {
	return w.Total() - w.Images
}

func (w Weight) String() string {
	return fmt.Sprintf("%d bytes in %d responses (document %d, scripts %d, styles %d, images %d, other %d)",
		w.Total(), w.Requests, w.Document, w.Scripts, w.Styles, w.Images, w.Other)
}

// pageWeight reads the browser's resource timing entries. The kind comes
// from the response's content type where the browser gives it, else from
// what asked for it and the file's extension.
const pageWeight = `(() => {
  const w = {document: 0, scripts: 0, styles: 0, images: 0, other: 0, requests: 0};
  for (const e of performance.getEntriesByType('navigation')) {
    w.document += e.encodedBodySize;
    w.requests++;
  }
  for (const e of performance.getEntriesByType('resource')) {
    const type = e.contentType || '';
    const file = new URL(e.name).pathname;
    let kind = 'other';
    if (type.startsWith('image/') || e.initiatorType === 'img' || /\.(png|jpe?g|gif|svg|webp|avif|ico)$/i.test(file)) {
      kind = 'images';
    } else if (type.includes('javascript') || e.initiatorType === 'script' || /\.m?js$/i.test(file)) {
      kind = 'scripts';
    } else if (type === 'text/css' || /\.css$/i.test(file)) {
      kind = 'styles';
    }
    w[kind] += e.encodedBodySize;
    w.requests++;
  }
  return w;
})()`

// PageWeight measures what the tab's current page has loaded. Measure once
// the page is complete: after the load event (chromedp.Navigate waits for
// it) and after what its scripts fetch later (wait for an element they
// add). New disables the cache, so nothing comes from an earlier page.
func PageWeight(ctx context.Context) (Weight, error) {
	w, err := chromedp.Run(ctx, chromedp.Evaluate[Weight](pageWeight))
	if err != nil {
		return Weight{}, fmt.Errorf("measuring the page's weight: %w", err)
	}
	return w, nil
}

// keystrokes types into the first element matching the selector, one
// character per input event as a keyboard does, and times each event's
// handlers together with the style and layout work they cause (reading
// offsetHeight makes the browser do it at once).
const keystrokes = `((sel, text) => {
  const el = document.querySelector(sel);
  if (!el) throw new Error('no element matches ' + sel);
  el.focus();
  const times = [];
  for (const ch of text) {
    const start = performance.now();
    el.value += ch;
    el.dispatchEvent(new InputEvent('input', {bubbles: true, inputType: 'insertText', data: ch}));
    void document.documentElement.offsetHeight;
    times.push(performance.now() - start);
  }
  return times;
})`

// KeystrokeTimes types text into the field matching the CSS selector, one
// character at a time, and returns how long the page took to handle each
// keystroke: its input handlers plus the style and layout work they cause,
// which is what must fit in a frame (16 ms). Painting is not included.
// The browser's timer is coarse (0.1 ms at worst).
func KeystrokeTimes(ctx context.Context, selector, text string) ([]time.Duration, error) {
	sel, _ := json.Marshal(selector)
	txt, _ := json.Marshal(text)
	ms, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](fmt.Sprintf("%s(%s, %s)", keystrokes, sel, txt)))
	if err != nil {
		return nil, fmt.Errorf("typing %q into %s: %w", text, selector, err)
	}
	times := make([]time.Duration, len(ms))
	for i, m := range ms {
		times[i] = time.Duration(m * float64(time.Millisecond))
	}
	return times, nil
}
