package grpcconformance

import (
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/retrykit/retrykit/retrytest/conformance"
)

// recorder is the t of a property, or of one of its cases, inside the
// bubble: it records what the property reports, so that the subtests
// report it outside the bubble (a skip inside synctest.Test would be a
// pass). FailNow, Fatalf and Skip end the goroutine running the property
// or case, as a testing.T's do. It is a fakeclock.FixtureT, so the
// scripted servers report through it.
type recorder struct {
	mu       sync.Mutex
	msgs     []string
	failed   bool
	skipped  string
	cleanups []func()
	cases    []conformance.Case
}

func (r *recorder) Helper()             {}
func (r *recorder) Logf(string, ...any) {}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = true
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

func (r *recorder) FailNow() {
	r.mu.Lock()
	r.failed = true
	r.mu.Unlock()
	runtime.Goexit()
}

// Skipf ends the property or case as skipped, saying why.
func (r *recorder) Skipf(format string, args ...any) {
	r.mu.Lock()
	r.skipped = fmt.Sprintf(format, args...)
	r.mu.Unlock()
	runtime.Goexit()
}

func (r *recorder) Cleanup(f func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cleanups = append(r.cleanups, f)
}

// Run runs f as the case named name, on a recorder of its own.
func (r *recorder) Run(name string, f func(t *recorder)) {
	if name == "" || name != strings.ToLower(name) || strings.ContainsAny(name, " /") {
		panic(fmt.Sprintf("grpcconformance: the case name %q is not one lowercase word: a bug of the suite", name))
	}
	child := &recorder{}
	child.run(func() { f(child) })
	v, msg := child.result()
	r.mu.Lock()
	r.cases = append(r.cases, conformance.Case{Name: name, Verdict: v, Message: msg})
	r.mu.Unlock()
}

// run runs f, then the cleanups, last registered first, each on a
// goroutine of its own, as the testing package does.
func (r *recorder) run(f func()) {
	step := func(fn func()) {
		done := make(chan struct{})
		go func() {
			defer close(done)
			fn()
		}()
		<-done
	}
	step(f)
	for {
		r.mu.Lock()
		n := len(r.cleanups)
		if n == 0 {
			r.mu.Unlock()
			return
		}
		fn := r.cleanups[n-1]
		r.cleanups = r.cleanups[:n-1]
		r.mu.Unlock()
		step(fn)
	}
}

// result is how the property or case ended on its own.
func (r *recorder) result() (conformance.Verdict, string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.failed:
		return conformance.Failed, strings.Join(r.msgs, "\n")
	case r.skipped != "":
		return conformance.Skipped, r.skipped
	}
	return conformance.Passed, ""
}
