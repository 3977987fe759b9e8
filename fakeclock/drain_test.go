package fakeclock_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/fakeclock"
)

var wantLadder = []time.Duration{0, 500 * ms, 1500 * ms}

// step is one advance of a test's script and the attempts it wants made
// once the advance has returned.
type step struct {
	d    time.Duration
	want int
}

// seedSteps are the seed's steps over the 500ms/1000ms ladder: 0, 499ms,
// 1ms, 1000ms.
var seedSteps = []step{{0, 1}, {499 * ms, 1}, {1 * ms, 2}, {1000 * ms, 3}}

// drive advances clk by each step with AdvanceAndDrain and checks the
// attempts made. It reports with Errorf and returns false at the first
// failure, so that it may run in a goroutine other than the test's.
func drive(t *testing.T, clk *fakeclock.Clock, rec *attempts, steps ...step) bool {
	t.Helper()
	for _, s := range steps {
		if err := clk.AdvanceAndDrain(t.Context(), s.d); err != nil {
			t.Errorf("AdvanceAndDrain(%v) = %v, want nil", s.d, err)
			return false
		}
		if got := rec.count(); got != s.want {
			t.Errorf("after AdvanceAndDrain(%v) at %v: %d attempts, want %d", s.d, clk.Since(fakeclock.Epoch), got, s.want)
			return false
		}
	}
	return true
}

// checkLadder drives the 500ms/1000ms loop through steps and checks that
// it made its attempts at 0, 500ms and 1.5s and returned.
func checkLadder(t *testing.T, clk *fakeclock.Clock, rec *attempts, done chan struct{}, steps ...step) {
	t.Helper()
	if !drive(t, clk, rec, steps...) {
		return
	}
	if got := rec.get(); !slices.Equal(got, wantLadder) {
		t.Errorf("attempts at %v, want %v", got, wantLadder)
	}
	if !isClosed(done) {
		t.Errorf("retry loop still running after the last advance, want returned")
	}
}

func TestDrainLadder(t *testing.T) {
	clk := fakeclock.New(t)
	rec := &attempts{}
	done := ladder(clk, rec, 500*ms, 1000*ms)
	checkLadder(t, clk, rec, done, step{1500 * ms, 3})
}

func TestDrainBoundary(t *testing.T) {
	clk := fakeclock.New(t)
	rec := &attempts{}
	done := ladder(clk, rec, 500*ms, 1000*ms)
	checkLadder(t, clk, rec, done, seedSteps...)
}

func TestDrainInBubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := fakeclock.New(t)
		rec := &attempts{}
		done := ladder(clk, rec, 500*ms, 1000*ms)
		checkLadder(t, clk, rec, done, seedSteps...)
		rec = &attempts{}
		done = ladder(clk, rec, 500*ms, 1000*ms)
		checkLadder(t, clk, rec, done, step{1500 * ms, 3})
	})
}

// TestDrainMutex: a goroutine holds a mutex while it sleeps on the clock and
// another waits for that mutex. synctest.Wait never returns on this (a
// mutex wait is not durable); the oracle counts the mutex wait as idle.
func TestDrainMutex(t *testing.T) {
	clk := fakeclock.New(t)
	var mu sync.Mutex
	rec := &attempts{}
	locked := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		mu.Lock()
		close(locked)
		clk.Sleep(1000 * ms)
		rec.add(clk.Since(fakeclock.Epoch))
		mu.Unlock()
	}()
	go func() {
		defer wg.Done()
		<-locked
		mu.Lock()
		rec.add(clk.Since(fakeclock.Epoch))
		mu.Unlock()
	}()
	ctx := t.Context()
	if err := clk.AdvanceAndDrain(ctx, 999*ms); err != nil {
		t.Fatalf("AdvanceAndDrain(999ms) = %v, want nil", err)
	}
	if got := rec.count(); got != 0 {
		t.Fatalf("after 999ms: %d goroutines through, want 0", got)
	}
	if err := clk.AdvanceAndDrain(ctx, 1*ms); err != nil {
		t.Fatalf("AdvanceAndDrain(1ms) = %v, want nil", err)
	}
	if got, want := rec.get(), []time.Duration{1000 * ms, 1000 * ms}; !slices.Equal(got, want) {
		t.Errorf("goroutines through at %v, want %v", got, want)
	}
	wg.Wait()
}

// httpRetry is a retry client: it GETs url until a 200, sleeping the given
// delays on clk between attempts. done closes when it returns; *result is
// then its error.
func httpRetry(client *http.Client, url string, clk clockwork.Clock, rec *attempts, delays ...time.Duration) (done chan struct{}, result *error) {
	done, result = make(chan struct{}), new(error)
	go func() {
		defer close(done)
		start := clk.Now()
		for i := 0; ; i++ {
			rec.add(clk.Since(start))
			resp, err := client.Get(url)
			if err != nil {
				*result = err
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
			if i == len(delays) {
				*result = errors.New(resp.Status)
				return
			}
			clk.Sleep(delays[i])
		}
	}()
	return done, result
}

// checkHTTPLadder is checkLadder for httpRetry, which also reports an
// error.
func checkHTTPLadder(t *testing.T, clk *fakeclock.Clock, rec *attempts, done chan struct{}, result *error, steps ...step) {
	t.Helper()
	checkLadder(t, clk, rec, done, steps...)
	if isClosed(done) && *result != nil {
		t.Errorf("retry loop = %v, want nil", *result)
	}
}

// traceOnFailure records the settle oracle's decisions; the returned func
// logs them if the test failed.
func traceOnFailure(t *testing.T, clk *fakeclock.Clock) func() {
	var mu sync.Mutex
	var trace []string
	fakeclock.SetTrace(clk, func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		trace = append(trace, fmt.Sprintf(format, args...))
	})
	return func() {
		if t.Failed() {
			mu.Lock()
			defer mu.Unlock()
			t.Logf("settle trace:\n%s", strings.Join(trace, "\n"))
		}
	}
}

func flakyServer(t *testing.T, failures int) *httptest.Server {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if int(n.Add(1)) <= failures {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		io.WriteString(w, "ok")
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestDrainHTTP(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"one advance", []step{{1500 * ms, 3}}},
		{"steps", []step{{0, 1}, {499 * ms, 1}, {1 * ms, 2}, {999 * ms, 2}, {1 * ms, 3}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := flakyServer(t, 2)
			client := srv.Client()
			t.Cleanup(client.CloseIdleConnections)
			clk := fakeclock.New(t)
			defer traceOnFailure(t, clk)()
			rec := &attempts{}
			done, result := httpRetry(client, srv.URL, clk, rec, 500*ms, 1000*ms)
			checkHTTPLadder(t, clk, rec, done, result, tc.steps...)
		})
	}
}

// TestDrainHTTPServerOutsideScope: the server was not started by the
// goroutine that made the clock (think of one started in TestMain), and its
// handler takes a while. While the retry client waits on the network, the
// goroutines started since New (the server's connection goroutines) are in
// scope, so the drain waits for the handler.
func TestDrainHTTPServerOutsideScope(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sum := sha256.Sum256(nil)
		for range 20000 { // some work (milliseconds): the response is not immediate
			sum = sha256.Sum256(sum[:])
		}
		if n.Add(1) <= 2 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintf(w, "%x", sum[:4])
	}))
	t.Cleanup(srv.Close)
	client := srv.Client()
	t.Cleanup(client.CloseIdleConnections)
	finished := make(chan struct{})
	go func() { // the clock's family does not include the server
		defer close(finished)
		clk := fakeclock.New(t)
		defer traceOnFailure(t, clk)()
		rec := &attempts{}
		done, result := httpRetry(client, srv.URL, clk, rec, 500*ms, 1000*ms)
		checkHTTPLadder(t, clk, rec, done, result, seedSteps...)
	}()
	<-finished
}

// TestDrainCPUHogs runs the ladder while a subtest burns CPU on two
// goroutines: they belong to a test that is still running and is not the
// ladder's, so they are out of the settle's scope.
func TestDrainCPUHogs(t *testing.T) {
	hogging, done := make(chan struct{}), make(chan struct{})
	go func() { // the ladder's test is TestDrainCPUHogs, not its subtest
		defer close(done)
		<-hogging
		for _, steps := range [][]step{{{1500 * ms, 3}}, seedSteps} {
			clk := fakeclock.New(t)
			rec := &attempts{}
			ladderDone := ladder(clk, rec, 500*ms, 1000*ms)
			checkLadder(t, clk, rec, ladderDone, steps...)
		}
	}()
	t.Run("hogs", func(t *testing.T) { hog(2, hogging, done) })
}

// hog burns CPU on n goroutines until stop is closed, closing started once
// they all run.
func hog(n int, started, stop chan struct{}) {
	var hogs, running sync.WaitGroup
	running.Add(n)
	for range n {
		hogs.Go(func() {
			running.Done()
			for x := 0; ; x++ {
				if x%1024 == 0 {
					select {
					case <-stop:
						return
					default:
					}
				}
			}
		})
	}
	running.Wait()
	close(started)
	hogs.Wait()
}

// TestDrainSelectDeadline: a loop that waits in a select on a fake-time
// deadline context is aborted mid-wait.
func TestDrainSelectDeadline(t *testing.T) {
	clk := fakeclock.New(t)
	ctx, cancel := clk.WithTimeout(t.Context(), 1200*ms)
	defer cancel()
	rec := &attempts{}
	done := make(chan error, 1)
	go func() {
		start := clk.Now()
		for _, d := range []time.Duration{500 * ms, 1000 * ms, 2000 * ms} {
			rec.add(clk.Since(start))
			select {
			case <-ctx.Done():
				done <- ctx.Err()
				return
			case <-clk.After(d):
			}
		}
		done <- nil
	}()
	if err := clk.AdvanceAndDrain(t.Context(), 5*time.Second); err != nil {
		t.Fatalf("AdvanceAndDrain(5s) = %v, want nil", err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("retry loop = %v, want context.DeadlineExceeded", err)
		}
	default:
		t.Fatal("retry loop still running, want aborted by its deadline")
	}
	if got, want := rec.get(), []time.Duration{0, 500 * ms}; !slices.Equal(got, want) {
		t.Errorf("attempts at %v, want %v", got, want)
	}
}

func spin(stop *atomic.Bool) {
	for !stop.Load() {
	}
}

// TestDrainNeverSettles: a busy goroutine makes AdvanceAndDrain fail within
// its budget, naming the goroutine, instead of hanging.
func TestDrainNeverSettles(t *testing.T) {
	clk := fakeclock.New(t)
	var stop atomic.Bool
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		spin(&stop)
	}()
	defer func() { <-exited }()
	defer stop.Store(true)
	tm := clk.AfterFunc(time.Second, func() {})
	defer tm.Stop()
	ctx, cancel := context.WithTimeout(t.Context(), 100*ms)
	defer cancel()
	err := clk.AdvanceAndDrain(ctx, time.Second)
	if !errors.Is(err, fakeclock.ErrNotSettled) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("AdvanceAndDrain(1s) = %v, want ErrNotSettled and context.DeadlineExceeded", err)
	}
	for _, want := range []string{"fakeclock_test.spin(", "AfterFunc 1s, due at +1s, armed at drain_test.go:"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("AdvanceAndDrain(1s) = %q, want it to contain %q", err, want)
		}
	}
}
