package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"radar/internal/mail/smtptest"
)

// TestKilledRunCompletesOnceAfterRestart kills a radar process (SIGKILL, no shutdown) while its tracker run
// is fetching a page, starts a new process on the same database, and checks that the run then completes
// exactly once: one signal, one alert, one e-mail.
func TestKilledRunCompletesOnceAfterRestart(t *testing.T) {
	shared := replicas(t)
	// A database of its own: the shared replicas must not work (or rescue) this test's jobs.
	c := &cluster{bin: shared.bin, dir: shared.dir, base: shared.base, redisURL: shared.redisURL, secret: shared.secret}
	var err error
	if c.dbURL, err = c.createSchema(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx := context.Background()
		if conn, err := pgx.Connect(ctx, c.base); err == nil {
			conn.Exec(ctx, "DROP SCHEMA "+c.schema+" CASCADE")
			conn.Close(ctx)
		}
	})
	if _, err := c.radar("migrate"); err != nil {
		t.Fatal(err)
	}
	key := c.tenant(t, "tracker:read,tracker:write")

	var hold atomic.Bool
	hold.Store(true)
	arrived := make(chan struct{}, 1)
	release := make(chan struct{})
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<html><head><title>Orrery Works</title></head><body><h1>Orrery Works</h1>
				<nav><a href="/about">About</a> <a href="/blog">Blog</a></nav>
				<footer><a href="https://www.linkedin.com/company/orrery-works">LinkedIn</a></footer></body></html>`)
		case "/blog":
			if hold.Load() {
				select {
				case arrived <- struct{}{}:
				default:
				}
				<-release
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<html><body><h1>Blog</h1><article><a href="/blog/series-a">Orrery Works raises $20M Series A led by Tidewater Capital</a></article></body></html>`)
		case "/blog/series-a":
			fmt.Fprint(w, `<html><body><p>Orrery Works has raised a $20M Series A led by Tidewater Capital.</p></body></html>`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(site.Close)
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	smtp := smtptest.Start(t, smtptest.Options{})
	env := []string{"RADAR_FETCH_ALLOW_PRIVATE=true", "RADAR_SMTP_URL=" + smtp.URL, "RADAR_JOB_TIMEOUT=3s"}

	first, err := c.start(env...)
	if err != nil {
		t.Fatal(err)
	}
	body := createBody("Orrery Works")
	body["companyWebsite"] = site.URL + "/"
	body["thingsToTrack"] = "Any funding round."
	created := mustCall(t, http.MethodPost, first.url+"/api/v1/tracker", key, body, nil)
	if created.status != http.StatusCreated {
		t.Fatalf("create: %d %s", created.status, created.body)
	}
	var ent struct {
		Data struct{ ID string } `json:"data"`
	}
	decode(t, created, &ent)

	select {
	case <-arrived:
	case <-time.After(60 * time.Second):
		t.Fatalf("the first run never fetched the blog:\n%s", first.log)
	}
	if err := first.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-first.done
	hold.Store(false)
	close(release)

	second, err := c.start(env...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { second.stop() })
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var got struct {
			Data struct {
				LastScrapedAt *string `json:"lastScrapedAt"`
			} `json:"data"`
		}
		decode(t, mustCall(t, http.MethodGet, second.url+"/api/v1/tracker/"+ent.Data.ID, key, nil, nil), &got)
		if got.Data.LastScrapedAt != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the run never completed after the restart:\n%s", second.log)
		}
		time.Sleep(200 * time.Millisecond)
	}
	for len(smtp.Messages()) == 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	// Give a duplicate delivery, were there one, the time to arrive.
	time.Sleep(2 * time.Second)

	var list struct {
		Data []struct {
			Type    string `json:"type"`
			Outcome string `json:"outcome"`
		} `json:"data"`
	}
	decode(t, mustCall(t, http.MethodGet, second.url+"/api/v1/signals?entityId="+ent.Data.ID, key, nil, nil), &list)
	if len(list.Data) != 1 || list.Data[0].Type != "funding" {
		t.Errorf("signals after the restart: %+v, want one funding signal", list.Data)
	}
	decode(t, mustCall(t, http.MethodGet, second.url+"/api/v1/alerts?entityId="+ent.Data.ID, key, nil, nil), &list)
	if len(list.Data) != 1 || list.Data[0].Outcome != "sent" {
		t.Errorf("alerts after the restart: %+v, want one sent", list.Data)
	}
	if n := len(smtp.Messages()); n != 1 {
		t.Errorf("e-mails: %d, want exactly 1", n)
	}
}
