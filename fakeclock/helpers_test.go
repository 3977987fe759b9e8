package fakeclock_test

import (
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
)

// attempts records when each attempt of a retry loop happened, as offsets
// from the loop's start. Tests read it under its lock: a settle is no
// happens-before edge outside a bubble.
type attempts struct {
	mu sync.Mutex
	at []time.Duration
}

func (a *attempts) add(d time.Duration) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.at = append(a.at, d)
}

func (a *attempts) get() []time.Duration {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]time.Duration(nil), a.at...)
}

func (a *attempts) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.at)
}

// ladder starts a retry loop that makes an attempt, then sleeps each delay
// on clk before the next one. done closes when it returns.
func ladder(clk clockwork.Clock, rec *attempts, delays ...time.Duration) (done chan struct{}) {
	done = make(chan struct{})
	go func() {
		defer close(done)
		start := clk.Now()
		rec.add(0)
		for _, d := range delays {
			clk.Sleep(d)
			rec.add(clk.Since(start))
		}
	}()
	return done
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

const ms = time.Millisecond

// fakeT is a FixtureT that records what the clock reports and runs its
// cleanups when the test says so.
type fakeT struct {
	mu       sync.Mutex
	errors   []string
	logs     []string
	cleanups []func()
}

func (f *fakeT) Helper() {}

func (f *fakeT) Logf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.logs = append(f.logs, fmt.Sprintf(format, args...))
}

// logged returns what the clock logged.
func (f *fakeT) logged() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.logs)
}

func (f *fakeT) Fatalf(format string, args ...any) { f.Errorf(format, args...) }

func (f *fakeT) FailNow() { f.Errorf("FailNow") }

func (f *fakeT) Errorf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}

func (f *fakeT) Cleanup(fn func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cleanups = append(f.cleanups, fn)
}

// finish runs the cleanups, last registered first, and returns the errors.
func (f *fakeT) finish() []string {
	f.mu.Lock()
	fns := f.cleanups
	f.cleanups = nil
	f.mu.Unlock()
	for i := len(fns) - 1; i >= 0; i-- {
		fns[i]()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.errors)
}

// here returns the "file.go:42" of its caller.
func here() string {
	_, file, line, _ := runtime.Caller(1)
	return filepath.Base(file) + ":" + strconv.Itoa(line)
}

// nextLine returns the "file.go:43" of the line after its caller's.
func nextLine() string {
	_, file, line, _ := runtime.Caller(1)
	return filepath.Base(file) + ":" + strconv.Itoa(line+1)
}

// stopT is a FixtureT whose Fatalf stops the calling goroutine, as
// testing.T's does, and which logs the calls it receives in order.
type stopT struct {
	fakeT
	mu    sync.Mutex
	calls []string
}

func (s *stopT) Helper() { s.log("Helper") }

func (s *stopT) Fatalf(format string, args ...any) {
	s.log("Fatalf: " + fmt.Sprintf(format, args...))
	runtime.Goexit()
}

func (s *stopT) FailNow() {
	s.log("FailNow")
	runtime.Goexit()
}

func (s *stopT) log(call string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, call)
}

// run calls f in a goroutine of its own, as the testing package runs a
// test, and reports whether f returned (false when Fatalf stopped it) and
// the calls logged meanwhile.
func (s *stopT) run(f func()) (returned bool, calls []string) {
	s.mu.Lock()
	s.calls = nil
	s.mu.Unlock()
	done := make(chan bool, 1)
	go func() {
		ok := false
		defer func() { done <- ok }()
		f()
		ok = true
	}()
	returned = <-done
	s.mu.Lock()
	defer s.mu.Unlock()
	return returned, slices.Clone(s.calls)
}
