package crawl

import (
	"bytes"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"
)

// document is what a crawl reads from an HTML page.
type document struct {
	base    *url.URL
	title   string
	text    string   // visible text, one block per line
	main    string   // visible text of the page's first <article>, else its <main>, one block per line
	anchors []anchor // every <a href> in document order
	feeds   []string // feeds announced with <link rel="alternate">, resolved
	texts   map[*html.Node]string
}

// anchor is one <a href> of a page.
type anchor struct {
	node   *html.Node
	url    *url.URL
	text   string
	rel    string
	chrome bool // inside nav, header or footer
}

// isHTML reports whether a response is an HTML page, sniffing the body when the type is missing.
func isHTML(contentType string, body []byte) bool {
	if contentType == "" {
		contentType = http.DetectContentType(body)
	}
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	return mt == "text/html" || mt == "application/xhtml+xml"
}

// parseDocument parses an HTML page fetched from pageURL, decoding its charset to UTF-8.
func parseDocument(body []byte, contentType string, pageURL *url.URL) (*document, error) {
	r, err := charset.NewReader(bytes.NewReader(body), contentType)
	if err != nil {
		return nil, fmt.Errorf("decode page: %w", err)
	}
	root, err := html.Parse(r)
	if err != nil {
		return nil, fmt.Errorf("parse page: %w", err)
	}
	d := &document{base: pageURL, texts: make(map[*html.Node]string)}
	w := &textWriter{}
	var article, mainEl *textWriter // the text of the first <article> and the first <main>
	var description string
	var rawAnchors []rawAnchor
	var rawFeeds []string

	// chrome marks the page's own navigation, header and footer; a header or footer inside an
	// article or section (a person's card, a post) is content.
	var walk func(n *html.Node, chrome, hideText, inContent bool)
	walk = func(n *html.Node, chrome, hideText, inContent bool) {
		switch n.Type {
		case html.TextNode:
			if !hideText {
				w.write(n.Data)
				for _, cw := range []*textWriter{article, mainEl} {
					if cw != nil && cw.open {
						cw.write(n.Data)
					}
				}
			}
			return
		case html.ElementNode:
		case html.DocumentNode:
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c, chrome, hideText, inContent)
			}
			return
		default:
			return
		}
		switch n.DataAtom {
		case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Svg, atom.Math,
			atom.Iframe, atom.Object, atom.Canvas, atom.Select, atom.Button:
			return
		case atom.Title:
			if d.title == "" {
				d.title = collapse(textContent(n))
			}
			return
		case atom.Meta:
			if strings.EqualFold(attr(n, "name"), "description") && description == "" {
				description = collapse(attr(n, "content"))
			}
			return
		case atom.Base:
			if u, ok := resolve(pageURL, attr(n, "href")); ok {
				d.base = u
			}
			return
		case atom.Link:
			if hasToken(attr(n, "rel"), "alternate") && isFeedType(attr(n, "type")) {
				rawFeeds = append(rawFeeds, attr(n, "href"))
			}
			return
		case atom.Nav, atom.Aside:
			chrome, hideText = true, true
		case atom.Footer:
			if !inContent {
				chrome, hideText = true, true
			}
		case atom.Header:
			if !inContent {
				chrome = true
			}
		case atom.Article, atom.Section, atom.Main:
			inContent = true
		case atom.Br:
			w.flush()
			article.flushOpen()
			mainEl.flushOpen()
			return
		case atom.A:
			if href := attr(n, "href"); href != "" {
				rawAnchors = append(rawAnchors, rawAnchor{node: n, href: href, rel: attr(n, "rel"), chrome: chrome})
			}
		}
		if hasAttr(n, "hidden") || strings.EqualFold(attr(n, "aria-hidden"), "true") {
			hideText = true
		}
		var opened *textWriter
		switch {
		case n.DataAtom == atom.Article && article == nil:
			article = &textWriter{open: true}
			opened = article
		case n.DataAtom == atom.Main && mainEl == nil:
			mainEl = &textWriter{open: true}
			opened = mainEl
		}
		block := isBlock(n.DataAtom)
		if block {
			w.flush()
			article.flushOpen()
			mainEl.flushOpen()
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, chrome, hideText, inContent)
		}
		if block {
			w.flush()
			article.flushOpen()
			mainEl.flushOpen()
		}
		if opened != nil {
			opened.flush()
			opened.open = false
		}
	}
	walk(root, false, false, false)
	w.flush()

	lines := make([]string, 0, len(w.lines)+2)
	for _, l := range []string{d.title, description} {
		if l != "" {
			lines = append(lines, l)
		}
	}
	lines = append(lines, w.lines...)
	d.text = truncate(strings.Join(lines, "\n"), maxPageText)
	for _, cw := range []*textWriter{article, mainEl} {
		if cw != nil && len(cw.lines) > 0 {
			d.main = truncate(strings.Join(cw.lines, "\n"), maxPageText)
			break
		}
	}

	for _, a := range rawAnchors {
		u, ok := resolve(d.base, a.href)
		if !ok {
			continue
		}
		text := d.textOf(a.node)
		if text == "" {
			text = collapse(firstNonEmpty(attr(a.node, "title"), attr(a.node, "aria-label"), imageAlt(a.node)))
		}
		d.anchors = append(d.anchors, anchor{node: a.node, url: u, text: text, rel: a.rel, chrome: a.chrome})
	}
	for _, href := range rawFeeds {
		if u, ok := resolve(d.base, href); ok {
			d.feeds = append(d.feeds, u.String())
		}
	}
	return d, nil
}

type rawAnchor struct {
	node   *html.Node
	href   string
	rel    string
	chrome bool
}

// textOf returns the collapsed text under n, cached per node.
func (d *document) textOf(n *html.Node) string {
	if t, ok := d.texts[n]; ok {
		return t
	}
	t := collapse(textContent(n))
	d.texts[n] = t
	return t
}

// textWriter gathers visible text into lines, one per block element.
type textWriter struct {
	lines []string
	cur   strings.Builder
	space bool
	open  bool // for the text of one element: still inside it
}

// flushOpen ends the current line of a writer that is still gathering; it does nothing on nil.
func (w *textWriter) flushOpen() {
	if w != nil && w.open {
		w.flush()
	}
}

func (w *textWriter) write(s string) {
	for _, r := range s {
		if unicode.IsSpace(r) || r == '\u00a0' {
			w.space = true
			continue
		}
		if w.space && w.cur.Len() > 0 {
			w.cur.WriteByte(' ')
		}
		w.space = false
		w.cur.WriteRune(r)
	}
}

func (w *textWriter) flush() {
	if w.cur.Len() > 0 {
		w.lines = append(w.lines, w.cur.String())
		w.cur.Reset()
	}
	w.space = false
}

// isBlock reports whether an element starts a new line of text.
func isBlock(a atom.Atom) bool {
	switch a {
	case atom.Address, atom.Article, atom.Blockquote, atom.Body, atom.Dd, atom.Details, atom.Dialog,
		atom.Div, atom.Dl, atom.Dt, atom.Fieldset, atom.Figcaption, atom.Figure, atom.Form,
		atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Header, atom.Hgroup, atom.Hr,
		atom.Li, atom.Main, atom.Ol, atom.P, atom.Pre, atom.Section, atom.Summary, atom.Table,
		atom.Tbody, atom.Td, atom.Tfoot, atom.Th, atom.Thead, atom.Tr, atom.Ul, atom.Caption:
		return true
	}
	return false
}

// textContent returns all text under n except scripts and styles, uncollapsed.
func textContent(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch {
		case n.Type == html.TextNode:
			b.WriteString(n.Data)
			return
		case n.Type == html.ElementNode && (n.DataAtom == atom.Script || n.DataAtom == atom.Style || n.DataAtom == atom.Template):
			return
		}
		block := n.Type == html.ElementNode && (isBlock(n.DataAtom) || n.DataAtom == atom.Br)
		if block {
			b.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if block {
			b.WriteByte(' ')
		}
	}
	walk(n)
	return b.String()
}

// collapse trims s and turns every run of white space into one space.
func collapse(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\u00a0", " ")), " ")
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && strings.EqualFold(a.Key, key) {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Namespace == "" && strings.EqualFold(a.Key, key) {
			return true
		}
	}
	return false
}

// hasToken reports whether a space-separated attribute such as rel contains token.
func hasToken(list, token string) bool {
	for _, f := range strings.Fields(list) {
		if strings.EqualFold(f, token) {
			return true
		}
	}
	return false
}

// imageAlt returns the alt text of the first image inside n.
func imageAlt(n *html.Node) string {
	for c := range n.Descendants() {
		if c.Type == html.ElementNode && c.DataAtom == atom.Img {
			if alt := attr(c, "alt"); alt != "" {
				return alt
			}
		}
	}
	return ""
}

// isFeedType reports whether a <link type> announces a feed.
func isFeedType(t string) bool {
	mt, _, err := mime.ParseMediaType(t)
	if err != nil {
		return false
	}
	switch mt {
	case "application/rss+xml", "application/atom+xml", "application/feed+json", "application/rdf+xml":
		return true
	}
	return false
}

// fragmentText returns the visible text of an HTML fragment such as a feed entry's description.
func fragmentText(s string) string {
	if !strings.ContainsAny(s, "<&") {
		return collapse(s)
	}
	nodes, err := html.ParseFragment(strings.NewReader(s), &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
	if err != nil {
		return collapse(s)
	}
	var b strings.Builder
	for _, n := range nodes {
		b.WriteString(textContent(n))
		b.WriteByte(' ')
	}
	return collapse(b.String())
}
