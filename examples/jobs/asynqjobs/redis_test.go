package asynqjobs_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

// redisEnv names the Redis the real-server tests use, host:port.
const redisEnv = "RETRYKIT_REDIS_ADDR"

// startRedis is the command that starts a Redis for these tests by hand.
const startRedis = `redis-server --port 6390 --bind 127.0.0.1 --save '' --appendonly no --daemonize yes
    RETRYKIT_REDIS_ADDR=127.0.0.1:6390 go test ./asynqjobs
(Debian: apt-get install redis-server; stop it with redis-cli -p 6390 shutdown nosave)`

// redisOpt returns the Redis of RETRYKIT_REDIS_ADDR, after checking that
// it answers. Without the variable the test skips, saying how to start
// one; with it set and Redis not answering the test fails: .ci/run sets
// it, so CI never skips these tests.
func redisOpt(t *testing.T) asynq.RedisClientOpt {
	t.Helper()
	addr := os.Getenv(redisEnv)
	if addr == "" {
		t.Skipf("SKIP: asynq's real server needs Redis, and %s is not set. Start one and run the tests against it:\n    %s", redisEnv, startRedis)
	}
	c := redis.NewClient(&redis.Options{Addr: addr, DialTimeout: 2 * time.Second})
	defer c.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if err := c.Ping(ctx).Err(); err != nil {
		t.Fatalf("%s=%s, but Redis does not answer: %v\nstart it with\n    %s\n(a set %s means a Redis is expected: the tests fail rather than skip)", redisEnv, addr, err, startRedis, redisEnv)
	}
	return asynq.RedisClientOpt{Addr: addr}
}

// queue is one test's asynq queue on the real Redis: its own name, so
// that runs and tests never see each other's tasks, deleted at the end.
type queue struct {
	t         *testing.T
	opt       asynq.RedisClientOpt
	name      string
	client    *asynq.Client
	inspector *asynq.Inspector
	log       *logger
}

func newQueue(t *testing.T) *queue {
	t.Helper()
	opt := redisOpt(t)
	var b [8]byte
	_, _ = rand.Read(b[:])
	q := &queue{t: t, opt: opt, name: "retrykit-" + hex.EncodeToString(b[:]), client: asynq.NewClient(opt), inspector: asynq.NewInspector(opt), log: &logger{}}
	t.Cleanup(func() {
		if err := q.inspector.DeleteQueue(q.name, true); err != nil && !errors.Is(err, asynq.ErrQueueNotFound) {
			t.Errorf("deleting queue %s: %v", q.name, err)
		}
		if err := q.client.Close(); err != nil {
			t.Errorf("closing asynq's client: %v", err)
		}
		if err := q.inspector.Close(); err != nil {
			t.Errorf("closing asynq's inspector: %v", err)
		}
		if t.Failed() && q.log.String() != "" {
			t.Logf("asynq's log:\n%s", q.log)
		}
	})
	return q
}

// enqueue adds task to the queue, pending: the next server takes it at once.
func (q *queue) enqueue(task *asynq.Task) *asynq.TaskInfo {
	q.t.Helper()
	info, err := q.client.Enqueue(task, asynq.Queue(q.name))
	if err != nil {
		q.t.Fatalf("enqueue: %v", err)
	}
	return info
}

// run is one run of asynq's real server over the queue.
type run struct {
	err           error     // what the handler returned
	before, after time.Time // the wall clock before Start and after Shutdown
}

// runOnce starts asynq's real server on the queue, with delay as its
// RetryDelayFunc (nil for asynq's default), lets it process the one
// pending task with h and shuts it down. Shutdown waits for the worker,
// which writes the retry or the archive after the handler returns, so
// when runOnce returns asynq has recorded what it does with the failure.
// asynq reads the wall clock for the retry (processor.go:358), so the run
// is bracketed by the wall clock. Nothing waits on asynq's schedulers: the
// forwarder, which would move a due retry back to pending, is set to run
// hourly.
func (q *queue) runOnce(delay asynq.RetryDelayFunc, h asynq.Handler) run {
	q.t.Helper()
	handled := make(chan error, 1)
	srv := asynq.NewServer(q.opt, asynq.Config{
		Concurrency:              1,
		Queues:                   map[string]int{q.name: 1},
		RetryDelayFunc:           delay,
		TaskCheckInterval:        10 * time.Millisecond,
		DelayedTaskCheckInterval: time.Hour,
		Logger:                   q.log,
		LogLevel:                 asynq.WarnLevel,
	})
	r := run{before: time.Now()}
	err := srv.Start(asynq.HandlerFunc(func(ctx context.Context, t *asynq.Task) error {
		err := h.ProcessTask(ctx, t)
		handled <- err
		return err
	}))
	if err != nil {
		q.t.Fatalf("asynq: Server.Start: %v", err)
	}
	select {
	case r.err = <-handled:
	case <-time.After(10 * time.Second): // a guard, not a wait: the task is pending before Start
		srv.Shutdown()
		q.t.Fatalf("asynq's server did not run the pending task of queue %s in 10s", q.name)
	}
	srv.Shutdown()
	r.after = time.Now()
	if bad := q.log.errors(); bad != "" {
		q.t.Errorf("asynq logged errors:\n%s", bad)
	}
	return r
}

// retried returns the queue's one task in the retry set, failing the
// test if there is not exactly one.
func (q *queue) retried() *asynq.TaskInfo {
	q.t.Helper()
	tasks, err := q.inspector.ListRetryTasks(q.name)
	if err != nil || len(tasks) != 1 {
		q.t.Fatalf("asynq: ListRetryTasks(%s) = %d tasks, %v; want the one task that failed", q.name, len(tasks), err)
	}
	return tasks[0]
}

// again moves the task from the retry set to pending, as asynq's
// forwarder does once it is due.
func (q *queue) again(id string) {
	q.t.Helper()
	if err := q.inspector.RunTask(q.name, id); err != nil {
		q.t.Fatalf("asynq: RunTask(%s): %v", id, err)
	}
}

// checkRetryAt checks the time asynq recorded for the task's next run
// against the failure plus d: asynq stores it in whole seconds
// (rdb.go:831, processAt.Unix()), and the failure happened within the
// run, so the time is floor(failure + d) for a failure in
// [r.before, r.after].
func checkRetryAt(t *testing.T, info *asynq.TaskInfo, r run, lo, hi time.Duration) {
	t.Helper()
	got := info.NextProcessAt.Unix()
	first, last := r.before.Add(lo).Unix(), r.after.Add(hi).Unix()
	if got < first || got > last {
		t.Errorf("asynq recorded the retry for %s, want between %s and %s: the failure, in [%s, %s], plus a delay in [%s, %s], to the second",
			info.NextProcessAt.UTC().Format(time.TimeOnly), time.Unix(first, 0).UTC().Format(time.TimeOnly), time.Unix(last, 0).UTC().Format(time.TimeOnly),
			r.before.UTC().Format("15:04:05.000"), r.after.UTC().Format("15:04:05.000"), lo, hi)
	}
}

// recorder wraps a RetryDelayFunc, recording the n asynq passes it.
type recorder struct {
	mu    sync.Mutex
	ns    []int
	delay asynq.RetryDelayFunc
}

func (r *recorder) RetryDelay(n int, err error, task *asynq.Task) time.Duration {
	r.mu.Lock()
	r.ns = append(r.ns, n)
	r.mu.Unlock()
	return r.delay(n, err, task)
}

func (r *recorder) calls() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]int(nil), r.ns...)
}

// logger keeps asynq's log for the test.
type logger struct {
	mu    sync.Mutex
	lines []string
}

func (l *logger) add(level string, args []any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, level+" "+fmt.Sprint(args...))
}

func (l *logger) Debug(args ...any) { l.add("DEBUG", args) }
func (l *logger) Info(args ...any)  { l.add("INFO", args) }
func (l *logger) Warn(args ...any)  { l.add("WARN", args) }
func (l *logger) Error(args ...any) { l.add("ERROR", args) }
func (l *logger) Fatal(args ...any) { l.add("FATAL", args) }

func (l *logger) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// errors returns the ERROR and FATAL lines.
func (l *logger) errors() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, line := range l.lines {
		if strings.HasPrefix(line, "ERROR ") || strings.HasPrefix(line, "FATAL ") {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}
