// Package evalset reads the labelled evaluation set (internal/analysis/testdata/eval, format in its README):
// JSON objects, one a line, which the analyser's, the lead finder's and the tracker's evaluation tests each
// read into an item type of their own.
package evalset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// Load decodes the items of the files in dir whose names match pattern, in name order, skipping blank lines.
// An error names the file and the line; no file matching is no error.
func Load[T any](dir, pattern string) ([]T, error) {
	files, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	var items []T
	for _, name := range files {
		if items, err = appendFile(items, name); err != nil {
			return nil, err
		}
	}
	return items, nil
}

func appendFile[T any](items []T, name string) ([]T, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<22)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var it T
		if err := json.Unmarshal(sc.Bytes(), &it); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		items = append(items, it)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return items, nil
}
