package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"radar/internal/apitest"
)

// BenchmarkBatchCreate500 imports 500 new companies in one bulk create; ns/op is the time of one import.
func BenchmarkBatchCreate500(b *testing.B) {
	benchEngines(b, func(b *testing.B, env *apitest.Env, key string) {
		round := 0
		for b.Loop() {
			b.StopTimer()
			items := make([]any, 500)
			for i := range items {
				items[i] = apitest.CreateBody(fmt.Sprintf("Import %d-%d", round, i))
			}
			round++
			body, _ := json.Marshal(map[string]any{"items": items})
			b.StartTimer()
			serve(b, env, http.MethodPost, "/api/v1/tracker/batch", key, body, http.StatusOK)
		}
	})
}
