package retrytest

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
)

var _ TestingT = (*ExampleT)(nil)

// ExampleT is the t of a testable Example (a func ExampleXxx with an
// // Output: comment), which has no *testing.T: it prints what it is told
// on standard output, so that the Output comment pins the text of a
// failure, and it runs the cleanups that fixtures register. It satisfies
// [TestingT] and fakeclock.FixtureT:
//
//	func ExampleClient_Get() {
//		retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
//			clk := fakeclock.New(t)
//			tr := httpscript.NewTransport(t, httpscript.Respond(503), httpscript.Respond(200)).WithClock(clk)
//			// ... run the client on clk and advance it ...
//			retrytest.AssertAttemptsAt(t, tr, 0, time.Second)
//		})
//		// Output:
//		// PASS
//	}
//
// Errorf, Logf and Fatalf print their message on a line of its own, as
// fmt.Sprintf formats it; Errorf and Fatalf also mark the example failed.
// FailNow and Fatalf stop the function given to [ExampleT.Run] as they
// stop a test, with [runtime.Goexit]: they must be called from the
// goroutine running that function, like testing.T's. Run then runs the
// cleanups and prints PASS or FAIL.
//
// An ExampleT is safe for concurrent use: a scripted httpscript.Transport may
// report an unexpected request through Errorf from the client's goroutine.
type ExampleT struct {
	mu       sync.Mutex
	out      io.Writer // nil: standard output
	failed   bool
	cleanups []func()
}

// NewExampleT returns an ExampleT that has not failed and has no cleanups.
func NewExampleT() *ExampleT { return &ExampleT{} }

// Helper does nothing: an Example prints no file and line.
func (t *ExampleT) Helper() {}

// Errorf prints the message and marks the example failed.
func (t *ExampleT) Errorf(format string, args ...any) {
	t.print(fmt.Sprintf(format, args...), true)
}

// Logf prints the message.
func (t *ExampleT) Logf(format string, args ...any) {
	t.print(fmt.Sprintf(format, args...), false)
}

// Fatalf is Errorf followed by FailNow.
func (t *ExampleT) Fatalf(format string, args ...any) {
	t.print(fmt.Sprintf(format, args...), true)
	t.FailNow()
}

// FailNow marks the example failed and stops the function given to
// [ExampleT.Run] by calling [runtime.Goexit]; the cleanups still run. It
// must be called from the goroutine running that function.
func (t *ExampleT) FailNow() {
	t.mu.Lock()
	t.failed = true
	t.mu.Unlock()
	runtime.Goexit()
}

// Failed reports whether the example has failed.
func (t *ExampleT) Failed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.failed
}

// Cleanup registers f to run when the function given to [ExampleT.Run]
// has returned, last registered first, as testing.T's Cleanup does.
func (t *ExampleT) Cleanup(f func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.cleanups = append(t.cleanups, f)
}

// Run calls f with t on a goroutine of its own, as the testing package runs
// a test, and waits for it to return or to stop at FailNow or Fatalf. Then
// it runs the cleanups, last registered first (one that stops does not
// keep the others from running), prints PASS or FAIL on a line of its own,
// and returns whether the example passed. A panic in f or in a cleanup is
// raised again on the caller's goroutine. Call Run once per ExampleT.
func (t *ExampleT) Run(f func(t *ExampleT)) bool {
	if f == nil {
		panic("retrytest: ExampleT.Run: nil function")
	}
	t.step(func() { f(t) })
	for {
		t.mu.Lock()
		n := len(t.cleanups)
		if n == 0 {
			t.mu.Unlock()
			break
		}
		c := t.cleanups[n-1]
		t.cleanups = t.cleanups[:n-1]
		t.mu.Unlock()
		t.step(c)
	}
	ok := !t.Failed()
	if ok {
		t.print("PASS", false)
	} else {
		t.print("FAIL", false)
	}
	return ok
}

// step runs fn on a goroutine of its own and waits until it returns or
// exits; a panic is raised again here.
func (t *ExampleT) step(fn func()) {
	done := make(chan any, 1)
	go func() {
		var p any = noPanic{}
		defer func() {
			if r := recover(); r != nil {
				p = r
			}
			done <- p
		}()
		fn()
	}()
	if p := <-done; p != (noPanic{}) {
		panic(p)
	}
}

// noPanic is what a step that returned or exited reports.
type noPanic struct{}

// print writes msg on a line of its own, under the lock so that lines
// printed from several goroutines do not mix.
func (t *ExampleT) print(msg string, fail bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if fail {
		t.failed = true
	}
	if !strings.HasSuffix(msg, "\n") {
		msg += "\n"
	}
	out := t.out
	if out == nil {
		out = os.Stdout
	}
	fmt.Fprint(out, msg)
}
