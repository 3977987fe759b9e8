// Package fakeloop runs a retry loop that waits on a
// [github.com/retrykit/retrykit/fakeclock.Clock] in a goroutine of its own,
// and drives the clock until the loop returns, for the recipes of the
// libraries that take a clock (cenkalti/backoff v4, avast/retry-go).
//
// It fires one deadline at a time, and only once the loop has armed its next
// wait ([fakeclock.Clock.WaitForTimers], then [fakeclock.Clock.AdvanceToNext]),
// so no step depends on the clock judging that the loop has settled: each wait
// starts exactly at the deadline of the one before, and the drive ends when
// the loop returns, not when the clock sees nothing pending. (RunUntilIdle
// ends when nothing is pending once the code has settled; a goroutine that the
// garbage collector has parked in a runtime semaphore looks settled to the
// clock's oracle, so RunUntilIdle can return before the loop arms its next
// wait, and the test then hangs on the loop's result.) It stands in for a
// fakeclock helper with this contract, which fakeclock does not have yet.
package fakeloop

import (
	"context"
	"testing"

	"github.com/retrykit/retrykit/fakeclock"
)

// Loop is a retry loop running in its own goroutine on a fake clock.
type Loop[T any] struct {
	clk *fakeclock.Clock
	// others counts what was pending on the clock before the loop
	// started, such as the deadline of a context on the clock.
	others int
	done   chan T
	ctx    context.Context // ends when the loop has returned
	cancel context.CancelFunc
}

// Start calls loop in a new goroutine. Whatever is pending on clk at this
// moment (a fake-time context's deadline) is counted apart from the loop's
// own waits.
func Start[T any](clk *fakeclock.Clock, loop func() T) *Loop[T] {
	l := &Loop[T]{clk: clk, others: len(clk.Pending()), done: make(chan T, 1)}
	l.ctx, l.cancel = context.WithCancel(context.Background())
	go func() {
		l.done <- loop()
		l.cancel()
	}()
	return l
}

// Armed blocks until the loop has armed a wait on the clock, or has
// returned. It fails t if neither happens within fakeclock's settle budget.
func (l *Loop[T]) Armed(t *testing.T) {
	t.Helper()
	if err := l.clk.WaitForTimers(l.ctx, l.others+1); err != nil && l.ctx.Err() == nil {
		t.Fatalf("fakeloop: the loop neither returned nor armed a wait: %v", err)
	}
}

// Finish fires the clock's timers, one deadline at a time and each once the
// loop has armed its wait, until the loop returns, and returns what it
// returned. It fails t if the loop neither returns nor waits within
// fakeclock's settle budget. It must be called from the goroutine running the
// test.
func (l *Loop[T]) Finish(t *testing.T) T {
	t.Helper()
	for {
		l.Armed(t)
		if l.ctx.Err() != nil {
			return <-l.done
		}
		if _, err := l.clk.AdvanceToNext(l.ctx); err != nil && l.ctx.Err() == nil {
			t.Fatal(err)
		}
	}
}
