// Command pocketbase is a stock PocketBase server, built from its Go module, that docs/load/compare.sh measures
// next to Radar.
package main

import (
	"log"

	"github.com/pocketbase/pocketbase"
)

func main() {
	if err := pocketbase.New().Start(); err != nil {
		log.Fatal(err)
	}
}
