package simweb

import (
	"encoding/xml"
	"fmt"
	"slices"
	"time"
)

// rssFeed is an RSS 2.0 document.
type rssFeed struct {
	XMLName xml.Name   `xml:"rss"`
	Version string     `xml:"version,attr"`
	Channel rssChannel `xml:"channel"`
}

type rssChannel struct {
	Title         string    `xml:"title"`
	Link          string    `xml:"link"`
	Description   string    `xml:"description"`
	Language      string    `xml:"language"`
	LastBuildDate string    `xml:"lastBuildDate"`
	Items         []rssItem `xml:"item"`
}

type rssItem struct {
	Title       string  `xml:"title"`
	Link        string  `xml:"link"`
	Description string  `xml:"description"`
	PubDate     string  `xml:"pubDate"`
	GUID        rssGUID `xml:"guid"`
}

type rssGUID struct {
	IsPermaLink bool   `xml:"isPermaLink,attr"`
	Value       string `xml:",chardata"`
}

// atomFeed is an Atom 1.0 document.
type atomFeed struct {
	XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	Title   string      `xml:"title"`
	ID      string      `xml:"id"`
	Updated string      `xml:"updated"`
	Links   []atomLink  `xml:"link"`
	Author  atomAuthor  `xml:"author"`
	Entries []atomEntry `xml:"entry"`
}

type atomLink struct {
	Rel  string `xml:"rel,attr,omitempty"`
	Type string `xml:"type,attr,omitempty"`
	Href string `xml:"href,attr"`
}

type atomAuthor struct {
	Name string `xml:"name"`
}

type atomEntry struct {
	Title     string   `xml:"title"`
	ID        string   `xml:"id"`
	Published string   `xml:"published"`
	Updated   string   `xml:"updated"`
	Link      atomLink `xml:"link"`
	Summary   string   `xml:"summary"`
}

// companyFeed renders a company's feed, RSS or Atom as the company publishes, newest post first.
func (w *Web) companyFeed(c Company, posts []post) ([]byte, error) {
	updated := w.lastModified(posts)
	posts = slices.Clone(posts)
	slices.Reverse(posts)
	var doc any
	if c.Atom {
		feed := atomFeed{
			Title:   c.Name + " news",
			ID:      c.Website,
			Updated: rfc3339(updated),
			Links: []atomLink{
				{Rel: "self", Type: "application/atom+xml", Href: c.Website + "atom.xml"},
				{Rel: "alternate", Type: "text/html", Href: c.Website + "blog"},
			},
			Author: atomAuthor{Name: c.Name},
		}
		for _, p := range posts {
			link := postURL(c, p)
			feed.Entries = append(feed.Entries, atomEntry{
				Title:     p.Title,
				ID:        link,
				Published: rfc3339(p.Published),
				Updated:   rfc3339(p.Published),
				Link:      atomLink{Rel: "alternate", Type: "text/html", Href: link},
				Summary:   p.Body,
			})
		}
		doc = feed
	} else {
		items := make([]rssItem, 0, len(posts))
		for _, p := range posts {
			items = append(items, rssPostItem(postURL(c, p), p))
		}
		doc = newRSS(c.Name+" news", c.Website+"blog", c.Summary, updated, items)
	}
	return marshalXML(doc)
}

// newRSS builds an RSS 2.0 document.
func newRSS(title, link, description string, updated time.Time, items []rssItem) rssFeed {
	return rssFeed{
		Version: "2.0",
		Channel: rssChannel{
			Title:         title,
			Link:          link,
			Description:   description,
			Language:      "en",
			LastBuildDate: updated.UTC().Format(time.RFC1123Z),
			Items:         items,
		},
	}
}

// rssPostItem is the RSS item of a post published at link.
func rssPostItem(link string, p post) rssItem {
	return rssItem{
		Title:       p.Title,
		Link:        link,
		Description: p.Body,
		PubDate:     p.Published.UTC().Format(time.RFC1123Z),
		GUID:        rssGUID{IsPermaLink: true, Value: link},
	}
}

func marshalXML(doc any) ([]byte, error) {
	body, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("simweb: encode feed: %w", err)
	}
	return append([]byte(xml.Header), append(body, '\n')...), nil
}
