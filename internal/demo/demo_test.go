package demo_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"radar/internal/demo"
)

func TestPrepareDir(t *testing.T) {
	write := func(t *testing.T, dir string, names ...string) {
		t.Helper()
		for _, n := range names {
			if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	tests := []struct {
		name string
		keep bool
		// before sets the folder up; it returns the folder.
		before func(t *testing.T) string
		err    error
		// kept and gone are files that must survive, or be removed.
		kept, gone []string
	}{
		{"a new folder", false, func(t *testing.T) string { return filepath.Join(t.TempDir(), "new") }, nil, nil, nil},
		{"an empty folder", false, func(t *testing.T) string { return t.TempDir() }, nil, nil, nil},
		{"an earlier demo starts afresh", false, func(t *testing.T) string {
			dir := t.TempDir()
			write(t, dir, ".radar-demo", "radar.db", "radar.db-wal", "demo.json", "notes.txt")
			return dir
		}, nil, []string{"notes.txt"}, []string{"radar.db", "radar.db-wal", "demo.json"}},
		{"an earlier demo kept", true, func(t *testing.T) string {
			dir := t.TempDir()
			write(t, dir, ".radar-demo", "radar.db", "demo.json")
			return dir
		}, nil, []string{"radar.db", "demo.json"}, nil},
		{"someone else's folder", false, func(t *testing.T) string {
			dir := t.TempDir()
			write(t, dir, "radar.db")
			return dir
		}, demo.ErrForeignDir, []string{"radar.db"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := tc.before(t)
			url, err := demo.PrepareDir(dir, tc.keep)
			if !errors.Is(err, tc.err) {
				t.Fatalf("err = %v, want %v", err, tc.err)
			}
			if err == nil {
				if want := "sqlite:" + filepath.Join(dir, "radar.db"); url != want {
					t.Errorf("url = %q, want %q", url, want)
				}
				if _, err := os.Stat(filepath.Join(dir, ".radar-demo")); err != nil {
					t.Errorf("the folder is not marked as the demo's: %v", err)
				}
			}
			for _, n := range tc.kept {
				if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
					t.Errorf("%s is gone: %v", n, err)
				}
			}
			for _, n := range tc.gone {
				if _, err := os.Stat(filepath.Join(dir, n)); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s is still there", n)
				}
			}
		})
	}
}
