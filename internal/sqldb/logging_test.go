package sqldb_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/riverqueue/river"

	"radar/internal/sqldb"
	"radar/internal/sqldb/storetest"
)

// lockedBuffer is a log destination that the job queue's goroutines may write to at once.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestJobQueueInfoIsDebug checks that the job queue's routine INFO lines (client started, producer counts every
// few seconds) reach an INFO log only when it shows DEBUG too, as DEBUG lines.
func TestJobQueueInfoIsDebug(t *testing.T) {
	storetest.Each(t, func(t *testing.T, engine string) {
		db := storetest.Open(t, engine)
		for _, level := range []slog.Level{slog.LevelInfo, slog.LevelDebug} {
			var out lockedBuffer
			logger := slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: level}))
			workers := river.NewWorkers()
			river.AddWorker(workers, &recordWorker{})
			pool, err := db.StartWorkers(context.Background(), sqldb.WorkerOptions{Workers: workers, Logger: logger})
			if err != nil {
				t.Fatal(err)
			}
			if err := pool.Stop(context.Background()); err != nil {
				t.Fatal(err)
			}
			logs := out.String()
			if strings.Contains(logs, "level=INFO") {
				t.Errorf("at %s the job queue logged INFO lines:\n%s", level, logs)
			}
			if started := strings.Contains(logs, `level=DEBUG msg="River client started"`); started != (level == slog.LevelDebug) {
				t.Errorf("at %s: the client's start logged at DEBUG = %v:\n%s", level, started, logs)
			}
		}
	})
}

// TestOpenNamesTheMigrationsItApplied checks that Open tells which migrations it applied: all of them on a new
// database, none on one that is up to date.
func TestOpenNamesTheMigrationsItApplied(t *testing.T) {
	url := "sqlite:" + t.TempDir() + "/radar.db"
	db, err := sqldb.Open(context.Background(), url, sqldb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	first := db.Applied()
	db.Close()
	if len(first) == 0 || first[0] != "00001_init.sql" || !strings.HasPrefix(first[len(first)-1], "job queue ") {
		t.Errorf("a new database applied %q, want every migration from 00001_init.sql, the job queue's last", first)
	}
	db, err = sqldb.Open(context.Background(), url, sqldb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if again := db.Applied(); len(again) != 0 {
		t.Errorf("an up-to-date database applied %q again", again)
	}
}

func TestOpenMakesNoFolders(t *testing.T) {
	dir := t.TempDir() + "/missing"
	if _, err := sqldb.Open(context.Background(), "sqlite:"+dir+"/radar.db", sqldb.Options{}); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("open in a missing folder: %v", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the missing folder was made: %v", err)
	}
}
