package riverjobs_test

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivershared/riversharedtest"
	"github.com/riverqueue/river/rivertest"

	"github.com/retrykit/retrykit/examples/jobs/riverjobs"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/seqrand"
)

// The test examples/jobs/README.md shows, on its own: a River client on SQLite in a
// temporary file, migrated by River, time pinned by River's stub, two
// failed deliveries, and the scheduled_at River wrote for the next one.
func TestDeliveryIsRetriedAtThePolicysDelay(t *testing.T) {
	ctx := context.Background()
	pool, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "river.sqlite3")) // modernc.org/sqlite: no cgo
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	pool.SetMaxOpenConns(1) // SQLite has one writer
	driver := riversqlite.New(pool)
	migrator, err := rivermigrate.New(driver, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := migrator.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		t.Fatal(err)
	}
	tx, err := pool.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()

	clock := &riversharedtest.TimeStub{} // River's test clock; it reaches RetryPolicy too
	clock.StubNow(time.Date(2026, 9, 18, 12, 0, 0, 0, time.UTC))
	endpoint := httpscript.NewTransport(t, httpscript.Respond(503).Always())
	w := rivertest.NewWorker(t, driver, &river.Config{
		RetryPolicy: &riverjobs.RetryPolicy{Rand: rand.New(seqrand.Max())}, // the top of every jitter window
		MaxAttempts: riverjobs.MaxAttempts,
		Test:        river.TestConfig{Time: clock},
	}, river.Worker[riverjobs.DeliverArgs](&riverjobs.DeliverWorker{Client: endpoint.Client()}))

	res, _ := w.Work(ctx, t, tx, riverjobs.DeliverArgs{ID: "evt-1", URL: "https://hooks.example.com/in"}, nil)
	clock.StubNow(res.Job.ScheduledAt) // River's scheduler would wait until then; WorkJob does not
	res, _ = w.WorkJob(ctx, t, tx, res.Job)

	var state, scheduledAt string
	err = tx.QueryRowContext(ctx, `SELECT state, CAST(scheduled_at AS TEXT) FROM river_job WHERE id = ?`, res.Job.ID).Scan(&state, &scheduledAt)
	if err != nil {
		t.Fatal(err)
	}
	// 12:00:00 + 5s (the first retry's ceiling) + 10s (the second's)
	if state != "retryable" || scheduledAt != "2026-09-18 12:00:15.000" {
		t.Errorf("after two failed deliveries River wrote %s at %s, want retryable at 2026-09-18 12:00:15.000", state, scheduledAt)
	}
}

// TestREADME: every Go block of examples/jobs/README.md names, in an HTML
// comment on the line before it, the compiled file it is copied from,
// relative to examples/jobs, and is still in that file.
func TestREADME(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)(?:<!-- copied from (\\S+) -->\\n)?```go\\n(.*?)```").FindAllStringSubmatch(string(readme), -1)
	if len(blocks) < 3 {
		t.Fatalf("examples/jobs/README.md has %d Go blocks, want the River test, the worker and its test", len(blocks))
	}
	for i, b := range blocks {
		from, code := b[1], b[2]
		if from == "" {
			t.Errorf("README.md Go block %d has no <!-- copied from FILE --> line before it:\n%s", i+1, code)
			continue
		}
		src, err := os.ReadFile(filepath.Join("..", from))
		if err != nil {
			t.Errorf("README.md Go block %d: %v", i+1, err)
			continue
		}
		if !strings.Contains(string(src), code) {
			t.Errorf("README.md Go block %d is not in %s any more; copy it again:\n%s", i+1, from, code)
		}
	}
}
