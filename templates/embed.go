// Package templates holds the default html/template files and static assets
// of a catalog's site. A catalog may override any of them with a file of the
// same name in a directory (site.Options.Templates); files of that directory
// with other names add partials (*.html) or assets.
//
// Pages: index.html and chart.html, each executed with a page value whose
// fields are Root (the way back to the site root: "" or "../../"),
// PageTitle, Description, Generated (nil, or .ISO and .Text), Catalog
// (.Name, .Title, .Description, .Source), and Index (index.html: .Cards,
// .Keywords, .Count) or Chart (chart.html); see site/build.go for every
// field. Every other *.html file is a partial parsed with both pages:
// layout.html defines "layout", the shared frame with the
// Content-Security-Policy, header and footer, which calls the page's
// "content" and "scripts" templates.
//
// The other files are static assets, copied to the site's assets/
// directory: style.css, catalog.js (the card filter of the index) and
// default-icon.svg (the icon of a chart without a usable one). The pages'
// CSP allows no inline script or style: templates use classes and data
// attributes only.
package templates

import "embed"

// FS holds the default templates and assets.
//
//go:embed *.html *.css *.js *.svg
var FS embed.FS
