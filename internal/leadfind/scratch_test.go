package leadfind

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestScratch(t *testing.T) {
	data, _ := os.ReadFile("/tmp/leadfind_cases.txt")
	for _, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		m := newMatcher("Northwind", []string{"Jane Doe", "Tom Hale"})
		for _, raw := range splitSentences(line) {
			fmt.Println("  |", m.prepare(raw).str)
		}
		for _, c := range Extract("Northwind", []string{"Tom Hale"}, []Item{{URL: "u", Text: line}}) {
			fmt.Printf("  => %s | %s | %s | %s | %s | %s\n", c.PersonName, c.PersonRole, c.CompanyName, c.Relation, c.Stage, c.CompanyWebsite)
		}
	}
}
