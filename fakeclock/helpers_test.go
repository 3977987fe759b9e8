package fakeclock_test

import (
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
