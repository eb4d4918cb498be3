package api

import (
	"strings"

	"github.com/danielgtaylor/huma/v2"
)

// registerDelivery registers the operations beyond the specification that help a team keep up with what is new
// and move data in and out: read positions, rule previews, bulk creates and CSV exports.
func (s *Server) registerDelivery() {
	s.registerSeen()
	s.registerPreview()
	s.registerBatch()
	documentCSV(s.api.OpenAPI())
}

// documentCSV adds the CSV export to the lists' successful responses.
func documentCSV(doc *huma.OpenAPI) {
	for pattern, name := range csvRoutes {
		path := strings.TrimPrefix(pattern, "GET ")
		item := doc.Paths[path]
		if item == nil || item.Get == nil || item.Get.Responses["200"] == nil {
			continue
		}
		item.Get.Responses["200"].Content[CSV] = &huma.MediaType{Schema: &huma.Schema{
			Type: "string",
			Description: "With Accept: text/csv, every " + strings.TrimSuffix(name, "s") + " row the filters select (limit and " +
				"cursor do not apply), a header row first, as RFC 4180 CSV; lists in a cell are joined by \"; \"",
		}}
		if item.Get.Description == "" {
			item.Get.Description = "Send Accept: text/csv for a CSV export of every matching row (filters apply; limit and cursor do not)."
		} else {
			item.Get.Description += " Send Accept: text/csv for a CSV export of every matching row (filters apply; limit and cursor do not)."
		}
	}
}
