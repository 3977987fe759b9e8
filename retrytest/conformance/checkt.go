package conformance

import (
	"fmt"
	"github.com/retrykit/retrykit/retrytest/conformance/internal/verdict"
	"runtime"
	"strings"
	"sync"
)

// tb is what a property needs of its t. Every property runs with a
// [checkT], in the Test forms as in the Check forms, so that what it
// reports — inside a testing/synctest bubble too — becomes a Result that
// the Test forms then report through the *testing.T outside the bubble.
type tb interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Logf(format string, args ...any)
	Cleanup(func())
	FailNow()
	Skip(args ...any)
	// Run runs f as the case of the property named name, on a t of its
	// own: its failures and its skip are the case's, and its cleanups run
	// when f returns.
	Run(name string, f func(t tb))
}

// checkT records what a property, or one of its cases, reports. FailNow,
// Fatalf and Skip stop it as they stop a test: with runtime.Goexit, so
// they must be called from the goroutine running the property (or case),
// as testing.T's must.
type checkT struct {
	mu       sync.Mutex
	msgs     []string
	failed   bool
	skipped  string
	cleanups []func()
	cases    []Case
	names    map[string]bool
}

func (r *checkT) Helper() {}

func (r *checkT) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = true
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}

func (r *checkT) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

func (r *checkT) Logf(string, ...any) {}

func (r *checkT) Cleanup(f func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cleanups = append(r.cleanups, f)
}

func (r *checkT) FailNow() {
	r.mu.Lock()
	r.failed = true
	r.mu.Unlock()
	runtime.Goexit()
}

func (r *checkT) Skip(args ...any) {
	r.mu.Lock()
	r.skipped = fmt.Sprint(args...)
	r.mu.Unlock()
	runtime.Goexit()
}

func (r *checkT) Run(name string, f func(t tb)) {
	r.mu.Lock()
	if r.names == nil {
		r.names = map[string]bool{}
	}
	if r.names[name] || name == "" || name != strings.ToLower(name) || strings.ContainsAny(name, " /") {
		r.mu.Unlock()
		panic(fmt.Sprintf("conformance: the case name %q is empty, repeated, or not one lowercase word: a bug of the suite", name))
	}
	r.names[name] = true
	r.mu.Unlock()
	child := &checkT{}
	child.run(func() { f(child) })
	st, msg := child.result()
	r.mu.Lock()
	r.cases = append(r.cases, Case{Name: name, Verdict: st, Message: msg})
	r.mu.Unlock()
}

// run runs f, then the cleanups, last registered first, each on a
// goroutine of its own, as the testing package does.
func (r *checkT) run(f func()) {
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

// result is how the property (or case) ended on its own: Failed, then
// Skipped, then Passed.
func (r *checkT) result() (Verdict, string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.failed:
		return Failed, strings.Join(r.msgs, "\n")
	case r.skipped != "":
		return Skipped, r.skipped
	}
	return Passed, ""
}

// property is the Result of the property r ran, before any waiver: its
// own outcome and its cases.
func (r *checkT) property(name string) Result {
	st, msg := r.result()
	r.mu.Lock()
	defer r.mu.Unlock()
	return verdict.New(name, st, msg, r.cases)
}
