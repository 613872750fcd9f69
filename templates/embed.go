// Package templates holds the default html/template files and static assets
// of a catalog's site. A catalog may override any of them with a file of the
// same name in a directory (site.Options.Templates); files of that directory
// with other names add partials (*.html) or assets.
//
// Pages: index.html and chart.html, each executed with a page value whose
// fields are Root (the way back to the site root: "" or "../../"),
// PageTitle, Description, Generated (nil, or .ISO and .Text), Catalog
// (.Name, .Title, .Description, .Source), RemoteImages (the page shows an
// https image, which its CSP must allow), and Index (index.html: .Cards,
// .Keywords, .Count, .Install) or Chart (chart.html); see site/build.go for
// every field. Every other *.html file is a partial parsed with both pages:
// layout.html defines "layout", the shared frame with the
// Content-Security-Policy, header and footer, which calls the page's
// "content" and "scripts" templates; form.html defines "chart-form", the
// live configuration form, which chart.html calls in its main column, after
// the install snippets, with the chart (its .Root is the page's).
//
// The other files are static assets, copied to the site's assets/
// directory: style.css; catalog.js (the card filter of the index);
// options.js (the search and folding groups of a chart page's options
// reference); copy.js (the copy buttons of every pre.snippet); icons.js
// (the fallback of remote icons); the form's scripts and stylesheet
// (form.js, formstate.js, launchlink.js, form.css); and default-icon.svg (the icon of a
// chart without a usable one). Every page works without its scripts: they
// only add to it. The pages' CSP allows no inline script or style:
// templates use classes and data attributes only.
package templates

import "embed"

// FS holds the default templates and assets.
//
//go:embed *.html *.css *.js *.svg
var FS embed.FS
