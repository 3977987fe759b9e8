package fakeclock_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
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

// checkLadderOneAdvance drives the 500ms/1000ms loop with one advance.
func checkLadderOneAdvance(t *testing.T, ctx context.Context, clk *fakeclock.Clock, rec *attempts, done chan struct{}) {
	t.Helper()
	if err := clk.AdvanceAndDrain(ctx, 1500*ms); err != nil {
		t.Fatalf("AdvanceAndDrain(1.5s) = %v, want nil", err)
	}
	if got := rec.get(); !slices.Equal(got, wantLadder) {
		t.Errorf("attempts at %v, want %v", got, wantLadder)
	}
	if !isClosed(done) {
		t.Errorf("retry loop still running after AdvanceAndDrain(1.5s), want returned")
	}
}

// checkLadderSteps drives it in the seed's steps: 0, 499ms, 1ms, 1000ms.
func checkLadderSteps(t *testing.T, ctx context.Context, clk *fakeclock.Clock, rec *attempts, done chan struct{}) {
	t.Helper()
	for _, step := range []struct {
		d    time.Duration
		want int
	}{{0, 1}, {499 * ms, 1}, {1 * ms, 2}, {1000 * ms, 3}} {
		if err := clk.AdvanceAndDrain(ctx, step.d); err != nil {
			t.Fatalf("AdvanceAndDrain(%v) = %v, want nil", step.d, err)
		}
		if got := rec.count(); got != step.want {
			t.Fatalf("after AdvanceAndDrain(%v) at %v: %d attempts, want %d", step.d, clk.Since(fakeclock.Epoch), got, step.want)
		}
	}
	if got := rec.get(); !slices.Equal(got, wantLadder) {
		t.Errorf("attempts at %v, want %v", got, wantLadder)
	}
	<-done
}

func TestDrainLadder(t *testing.T) {
	clk := fakeclock.New(t)
	rec := &attempts{}
	done := ladder(clk, rec, 500*ms, 1000*ms)
	checkLadderOneAdvance(t, t.Context(), clk, rec, done)
}

func TestDrainBoundary(t *testing.T) {
	clk := fakeclock.New(t)
	rec := &attempts{}
	done := ladder(clk, rec, 500*ms, 1000*ms)
	checkLadderSteps(t, t.Context(), clk, rec, done)
}

func TestDrainInBubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := fakeclock.New(t)
		rec := &attempts{}
		done := ladder(clk, rec, 500*ms, 1000*ms)
		checkLadderSteps(t, t.Context(), clk, rec, done)
		rec = &attempts{}
		done = ladder(clk, rec, 500*ms, 1000*ms)
		checkLadderOneAdvance(t, t.Context(), clk, rec, done)
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
// delays on clk between attempts.
func httpRetry(client *http.Client, url string, clk clockwork.Clock, rec *attempts, delays ...time.Duration) (done chan error) {
	done = make(chan error, 1)
	go func() {
		start := clk.Now()
		for i := 0; ; i++ {
			rec.add(clk.Since(start))
			resp, err := client.Get(url)
			if err != nil {
				done <- err
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				done <- nil
				return
			}
			if i == len(delays) {
				done <- errors.New(resp.Status)
				return
			}
			clk.Sleep(delays[i])
		}
	}()
	return done
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
		steps bool
	}{{"one advance", false}, {"steps", true}} {
		t.Run(tc.name, func(t *testing.T) {
			srv := flakyServer(t, 2)
			client := srv.Client()
			t.Cleanup(client.CloseIdleConnections)
			clk := fakeclock.New(t)
			defer traceOnFailure(t, clk)()
			rec := &attempts{}
			done := httpRetry(client, srv.URL, clk, rec, 500*ms, 1000*ms)
			ctx := t.Context()
			steps := []struct {
				d    time.Duration
				want int
			}{{1500 * ms, 3}}
			if tc.steps {
				steps = []struct {
					d    time.Duration
					want int
				}{{0, 1}, {499 * ms, 1}, {1 * ms, 2}, {999 * ms, 2}, {1 * ms, 3}}
			}
			for _, step := range steps {
				if err := clk.AdvanceAndDrain(ctx, step.d); err != nil {
					t.Fatalf("AdvanceAndDrain(%v) = %v, want nil", step.d, err)
				}
				if got := rec.count(); got != step.want {
					t.Fatalf("after AdvanceAndDrain(%v): %d attempts, want %d", step.d, got, step.want)
				}
			}
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("retry loop = %v, want nil", err)
				}
			default:
				t.Fatalf("retry loop still running after the last advance, want returned")
			}
			if got := rec.get(); !slices.Equal(got, wantLadder) {
				t.Errorf("attempts at %v, want %v", got, wantLadder)
			}
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
		done := httpRetry(client, srv.URL, clk, rec, 500*ms, 1000*ms)
		for _, step := range []struct {
			d    time.Duration
			want int
		}{{0, 1}, {499 * ms, 1}, {1 * ms, 2}, {1000 * ms, 3}} {
			if err := clk.AdvanceAndDrain(t.Context(), step.d); err != nil {
				t.Errorf("AdvanceAndDrain(%v) = %v, want nil", step.d, err)
				return
			}
			if got := rec.count(); got != step.want {
				t.Errorf("after AdvanceAndDrain(%v): %d attempts, want %d", step.d, got, step.want)
				return
			}
		}
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("retry loop = %v, want nil", err)
			}
		default:
			t.Errorf("retry loop still running after the last advance, want returned")
		}
		if got := rec.get(); !slices.Equal(got, wantLadder) {
			t.Errorf("attempts at %v, want %v", got, wantLadder)
		}
	}()
	<-finished
}

// TestDrainCPUHogs runs the ladder while goroutines outside the test's
// family burn CPU: the clock is made in a goroutine the hogs do not descend
// from.
func TestDrainCPUHogs(t *testing.T) {
	stop := make(chan struct{})
	var hogs sync.WaitGroup
	for range 2 {
		hogs.Go(func() {
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
	defer hogs.Wait()
	defer close(stop)
	runtime.Gosched()
	for _, steps := range []bool{false, true} {
		finished := make(chan struct{})
		go func() {
			defer close(finished)
			clk := fakeclock.New(t)
			rec := &attempts{}
			done := ladder(clk, rec, 500*ms, 1000*ms)
			if steps {
				checkLadderSteps(t, t.Context(), clk, rec, done)
			} else {
				checkLadderOneAdvance(t, t.Context(), clk, rec, done)
			}
		}()
		<-finished
	}
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
