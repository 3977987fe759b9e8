package retrytest_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/internal/faket"
	"github.com/retrykit/retrykit/retrytest"
)

// The compile-time promises of the ExampleT doc: it is the t of every
// retrykit fixture and check.
var (
	_ retrytest.TestingT = (*retrytest.ExampleT)(nil)
	_ fakeclock.FixtureT = (*retrytest.ExampleT)(nil)
)

// syncBuffer is a strings.Builder safe for the goroutines an ExampleT
// prints from.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
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

// runExampleT runs f in a new ExampleT and returns what it printed and
// what Run returned.
func runExampleT(f func(t *retrytest.ExampleT)) (string, bool) {
	t := retrytest.NewExampleT()
	var out syncBuffer
	retrytest.SetExampleOutput(t, &out)
	ok := t.Run(f)
	return out.String(), ok
}

func TestExampleT(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func(t *retrytest.ExampleT)
		out  string
		ok   bool
	}{
		{"passes", func(t *retrytest.ExampleT) {}, "PASS\n", true},
		{"logs and passes", func(t *retrytest.ExampleT) { t.Logf("attempt %d", 1) }, "attempt 1\nPASS\n", true},
		{"Errorf keeps going", func(t *retrytest.ExampleT) {
			t.Errorf("first")
			t.Errorf("second\n")
		}, "first\nsecond\nFAIL\n", false},
		{"FailNow stops", func(t *retrytest.ExampleT) {
			t.FailNow()
			t.Logf("not reached")
		}, "FAIL\n", false},
		{"Fatalf prints and stops", func(t *retrytest.ExampleT) {
			t.Fatalf("got %d attempts", 3)
			t.Logf("not reached")
		}, "got 3 attempts\nFAIL\n", false},
		{"FailNow after an Assert stops", func(t *retrytest.ExampleT) {
			if !retrytest.AssertAttempts(t, retrytest.Waits(time.Second), 3) {
				t.FailNow()
			}
			t.Logf("not reached")
		}, "retrytest: got 2 attempts (1 retry), want 3 (2 retries)\nretry schedule (2 attempts):\n" +
			"    attempt  delay  at  result\n    1        0s     0s  -\n    2        1s     1s  -\n  > 3        -      -   (missing)  <-- got 2 attempts, want 3\nFAIL\n", false},
		{"deferred calls run when stopped", func(t *retrytest.ExampleT) {
			defer t.Logf("deferred")
			t.FailNow()
		}, "deferred\nFAIL\n", false},
		{"cleanups run last registered first, after f", func(t *retrytest.ExampleT) {
			t.Cleanup(func() { t.Logf("cleanup 1") })
			t.Cleanup(func() { t.Logf("cleanup 2") })
			t.Logf("body")
		}, "body\ncleanup 2\ncleanup 1\nPASS\n", true},
		{"cleanups run after FailNow, and one that stops does not stop the rest", func(t *retrytest.ExampleT) {
			t.Cleanup(func() { t.Logf("cleanup 1") })
			t.Cleanup(func() { t.Fatalf("cleanup 2 fails") })
			t.Cleanup(func() { t.Cleanup(func() { t.Logf("registered by cleanup 3") }) })
			t.FailNow()
		}, "registered by cleanup 3\ncleanup 2 fails\ncleanup 1\nFAIL\n", false},
		{"a cleanup can fail a passing example", func(t *retrytest.ExampleT) {
			t.Cleanup(func() { t.Errorf("leaked a timer") })
		}, "leaked a timer\nFAIL\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, ok := runExampleT(tc.f)
			if out != tc.out || ok != tc.ok {
				t.Errorf("Run printed %q and returned %v, want %q and %v", out, ok, tc.out, tc.ok)
			}
		})
	}
}

func TestExampleTFailed(t *testing.T) {
	et := retrytest.NewExampleT()
	if et.Failed() {
		t.Fatal("a new ExampleT has failed")
	}
	retrytest.SetExampleOutput(et, &syncBuffer{})
	et.Errorf("boom")
	if !et.Failed() {
		t.Error("Failed() = false after Errorf, want true")
	}
}

// A transport reports an unexpected request through Errorf from the
// client's goroutine; under -race, the ExampleT must take that.
func TestExampleTConcurrentErrorf(t *testing.T) {
	out, ok := runExampleT(func(t *retrytest.ExampleT) {
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() { t.Errorf("from a goroutine") })
		}
		wg.Wait()
	})
	if ok || out != strings.Repeat("from a goroutine\n", 8)+"FAIL\n" {
		t.Errorf("Run printed %q and returned %v, want 8 lines, FAIL and false", out, ok)
	}
}

// A fake clock registers its leak check with Cleanup, which Run runs.
func TestExampleTWithFakeClock(t *testing.T) {
	out, ok := runExampleT(func(t *retrytest.ExampleT) {
		clk := fakeclock.New(t)
		clk.NewTimer(time.Second) // never fired nor stopped: a leak
	})
	if ok || !strings.Contains(out, "1s") || !strings.HasSuffix(out, "FAIL\n") {
		t.Errorf("Run printed %q and returned %v, want the clock's leak report, FAIL and false", out, ok)
	}
}

func TestExampleTPanics(t *testing.T) {
	errBoom := errors.New("boom")
	for _, tc := range []struct {
		name string
		f    func(t *retrytest.ExampleT)
	}{
		{"in f", func(*retrytest.ExampleT) { panic(errBoom) }},
		{"in a cleanup", func(t *retrytest.ExampleT) { t.Cleanup(func() { panic(errBoom) }) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := func() (r any) {
				defer func() { r = recover() }()
				runExampleT(tc.f)
				return nil
			}()
			if got != errBoom {
				t.Errorf("Run panicked with %v, want the panic of f raised again on the caller's goroutine", got)
			}
		})
	}
	if got := faket.PanicText(func() { retrytest.NewExampleT().Run(nil) }); got != "retrytest: ExampleT.Run: nil function" {
		t.Errorf("Run(nil) panicked %q", got)
	}
}
