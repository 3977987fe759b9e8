package riverjobs_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivershared/riversharedtest"
	"github.com/riverqueue/river/rivertest"
	"github.com/riverqueue/river/rivertype"
	_ "modernc.org/sqlite" // the pure-Go SQLite, registered as "sqlite"

	"github.com/retrykit/retrykit/examples/jobs/riverjobs"
	"github.com/retrykit/retrykit/httpscript"
)

// t0 is the instant the tests pin River's clock to: seed 000's
// freeze_time, 2026-09-18 12:00:00 UTC, a whole millisecond, since the
// SQLite driver stores times to the millisecond.
var t0 = time.Date(2026, 9, 18, 12, 0, 0, 0, time.UTC)

// db is a River database for one test: a SQLite file in t.TempDir(),
// migrated by River's own migrator (a copy of the template below), one transaction that every insert,
// every execution and every read of the test goes through (and that is
// rolled back at the end), River's test time stub pinned at t0, and
// River's log, kept for the test to read and printed if it fails.
type db struct {
	t      *testing.T
	driver *riversqlite.Driver
	tx     *sql.Tx
	clock  *riversharedtest.TimeStub
	log    *syncBuffer
}

func newDB(t *testing.T) *db {
	t.Helper()
	file, err := migrated()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "river.sqlite3")
	if err := os.WriteFile(path, file, 0o600); err != nil {
		t.Fatal(err)
	}
	pool, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := pool.Close(); err != nil {
			t.Errorf("closing the database: %v", err)
		}
	})
	// SQLite allows one writer at a time; River's driver asks for one
	// connection (riversqlite's package doc).
	pool.SetMaxOpenConns(1)
	d := &db{t: t, driver: riversqlite.New(pool), clock: &riversharedtest.TimeStub{}, log: &syncBuffer{}}
	// Not t.Context(): database/sql rolls a transaction back by itself once
	// its context ends, and t.Context() ends before the cleanups run.
	if d.tx, err = pool.BeginTx(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := d.tx.Rollback(); err != nil {
			t.Errorf("rolling back the test's transaction: %v", err)
		}
	})
	t.Cleanup(func() {
		if t.Failed() && d.log.Len() > 0 {
			t.Logf("River's log:\n%s", d.log)
		}
	})
	d.clock.StubNow(t0)
	return d
}

// template is a database that rivermigrate migrated once for the test
// binary, in a directory of its own: each test starts from a copy of its
// file. (Migrating costs a test 30ms, and 0.5s under the race detector,
// whose instrumentation slows the pure-Go SQLite tenfold.)
var template struct {
	once sync.Once
	dir  string
	file []byte // the migrated database
	err  error
}

// migrated returns the migrated database's file, migrating it on first use.
func migrated() ([]byte, error) {
	template.once.Do(func() { template.err = migrate() })
	return template.file, template.err
}

func migrate() (err error) {
	if template.dir, err = os.MkdirTemp("", "riverjobs-template-"); err != nil {
		return err
	}
	path := filepath.Join(template.dir, "river.sqlite3")
	pool, err := sql.Open("sqlite", path)
	if err != nil {
		return err
	}
	pool.SetMaxOpenConns(1)
	var log syncBuffer
	migrator, err := rivermigrate.New(riversqlite.New(pool), &rivermigrate.Config{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err == nil {
		_, err = migrator.Migrate(context.Background(), rivermigrate.DirectionUp, nil)
	}
	if cerr := pool.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("rivermigrate on %s: %w\n%s", path, err, log.String())
	}
	template.file, err = os.ReadFile(path)
	return err
}

// removeTemplate removes the migrated template's directory, if any.
func removeTemplate() error {
	if template.dir == "" {
		return nil
	}
	return os.RemoveAll(template.dir)
}

// config returns a River config for the test's database: River's time
// stub, River's log kept, the delivery worker (through transport) and,
// when policy is not nil, the client's retry policy.
func (d *db) config(policy river.ClientRetryPolicy) *river.Config {
	return &river.Config{
		Logger:      slog.New(slog.NewTextHandler(d.log, &slog.HandlerOptions{Level: slog.LevelWarn})),
		MaxAttempts: riverjobs.MaxAttempts,
		RetryPolicy: policy,
		Test:        river.TestConfig{Time: d.clock},
	}
}

// worker returns River's test worker for the delivery worker, whose
// deliveries go to the scripted transport tr.
func (d *db) worker(cfg *river.Config, tr *httpscript.Transport) *rivertest.Worker[riverjobs.DeliverArgs, *sql.Tx] {
	d.t.Helper()
	return rivertest.NewWorker(d.t, d.driver, cfg, river.Worker[riverjobs.DeliverArgs](&riverjobs.DeliverWorker{Client: tr.Client()}))
}

// row is a job as River wrote it, read back with SQL.
type row struct {
	State       string // "available", "retryable", "cancelled", "discarded", …
	ScheduledAt string // as stored: "2026-09-18 12:00:05.000", UTC
	Attempt     int
	Errors      int // errors recorded
}

func (d *db) row(id int64) row {
	d.t.Helper()
	var r row
	err := d.tx.QueryRowContext(d.t.Context(),
		`SELECT state, CAST(scheduled_at AS TEXT), attempt, json_array_length(coalesce(errors, '[]')) FROM river_job WHERE id = ?`, id).
		Scan(&r.State, &r.ScheduledAt, &r.Attempt, &r.Errors)
	if err != nil {
		d.t.Fatalf("reading job %d: %v", id, err)
	}
	return r
}

// at formats t as the SQLite driver stores it.
func at(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05.000") }

// deliver is the job every test inserts.
var deliver = riverjobs.DeliverArgs{ID: "evt-1", URL: "https://hooks.example.com/in"}

// work inserts the delivery job with opts and runs its first attempt
// with River's test worker. err is what the worker returned (River's test
// worker returns it, but nil for river.JobCancel); a result without a
// job fails the test.
func (d *db) work(w *rivertest.Worker[riverjobs.DeliverArgs, *sql.Tx], opts *river.InsertOpts) (*rivertest.WorkResult, error) {
	d.t.Helper()
	res, err := w.Work(d.t.Context(), d.t, d.tx, deliver, opts)
	if res == nil || res.Job == nil {
		d.t.Fatalf("rivertest.Worker.Work: no job worked: %v", err)
	}
	return res, err
}

// workAgain runs job's next attempt with River's test worker at the
// instant it is scheduled for: WorkJob ignores scheduled_at, so the test
// moves River's clock there first, as River's scheduler would have
// waited for it.
func (d *db) workAgain(w *rivertest.Worker[riverjobs.DeliverArgs, *sql.Tx], job *rivertype.JobRow) (*rivertest.WorkResult, error) {
	d.t.Helper()
	d.clock.StubNow(job.ScheduledAt.UTC())
	res, err := w.WorkJob(d.t.Context(), d.t, d.tx, job)
	if res == nil || res.Job == nil {
		d.t.Fatalf("rivertest.Worker.WorkJob(job %d): no job worked: %v", job.ID, err)
	}
	return res, err
}

// policyFunc is a ClientRetryPolicy from a function, recording the
// attempt and the errors of every job it is asked about.
type policyFunc struct {
	next  func(job *rivertype.JobRow) time.Time
	asked []asked
}

// asked is what River showed a retry policy: the job's attempt, counting
// the one that just failed, and the errors it had recorded before it.
type asked struct{ Attempt, Errors int }

func (p *policyFunc) NextRetry(job *rivertype.JobRow) time.Time {
	p.asked = append(p.asked, asked{job.Attempt, len(job.Errors)})
	return p.next(job)
}

// syncBuffer is a bytes.Buffer safe for River's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func (s *syncBuffer) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Len()
}
