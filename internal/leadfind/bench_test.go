package leadfind

import (
	"fmt"
	"testing"
	"time"
)

// benchItems builds n items shaped like a tracker run: articles that mix lead sentences with ordinary news.
func benchItems(n int) []Item {
	leads := []string{
		"Jane Doe, co-founder of Northwind, has left to start Aurora Robotics.",
		"Former Northwind CTO Sam Lee launches Kite, a stealth startup that raised a $3M seed round.",
		"Northwind invests in Delta AI (founders: Ann Bee and Cat Dee).",
		"Northwind acquires Quill, founded by Raj Patel.",
		"Northwind spins out Kite Health under co-founders Mo Khan and Lia Park.",
		"Aurora, founded by ex-Northwind engineer Jane Doe, raises a $12M Series A (aurora.ai).",
	}
	noise := []string{
		"Northwind, which makes software for freight forwarders, was founded in 2019 by Jane Doe and Tom Hale.",
		"The company has raised $60M to date, including a Series B led by Index Ventures.",
		`"Our customers, like Maersk and DHL, want real-time data," said Jane Doe, co-founder and CEO of Northwind.`,
		"Northwind competes with Flexport and with Convoy, which shut down in 2023.",
		"Northwind hires Sam Lee as VP Sales.",
		"Earlier this year Northwind launched Northwind Insights, an analytics product built with OpenAI.",
		"The company plans to hire 50 engineers in Lisbon and open an office in Berlin by the end of the year.",
	}
	out := make([]Item, n)
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range out {
		text := ""
		for k := range 6 {
			text += noise[(i+k)%len(noise)] + " "
		}
		text += leads[i%len(leads)]
		out[i] = Item{
			URL:       fmt.Sprintf("https://news.example/%d", i),
			Title:     fmt.Sprintf("Northwind weekly update %d", i),
			Text:      text,
			Published: day.AddDate(0, 0, i),
		}
	}
	return out
}

func BenchmarkExtract(b *testing.B) {
	in := benchItems(50)
	founders := []string{"Jane Doe", "Tom Hale"}
	if len(Extract("Northwind", founders, in)) == 0 {
		b.Fatal("benchmark items yield no leads")
	}
	b.ReportAllocs()
	for b.Loop() {
		Extract("Northwind", founders, in)
	}
}
