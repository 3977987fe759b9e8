package fakeclock

import (
	"strconv"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// Kind says what is waiting on the clock.
type Kind int

const (
	// KindSleep is a goroutine parked in [Clock.Sleep].
	KindSleep Kind = iota + 1
	// KindAfter is a channel returned by [Clock.After].
	KindAfter
	// KindTimer is a timer made by [Clock.NewTimer].
	KindTimer
	// KindTicker is a ticker made by [Clock.NewTicker].
	KindTicker
	// KindAfterFunc is a timer made by [Clock.AfterFunc].
	KindAfterFunc
	// KindContext is the deadline of a context made by [Clock.WithTimeout]
	// or one of its siblings.
	KindContext
)

// String returns "Sleep", "After", "Timer", "Ticker", "AfterFunc" or
// "Context".
func (k Kind) String() string {
	switch k {
	case KindSleep:
		return "Sleep"
	case KindAfter:
		return "After"
	case KindTimer:
		return "Timer"
	case KindTicker:
		return "Ticker"
	case KindAfterFunc:
		return "AfterFunc"
	case KindContext:
		return "Context"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Waiter describes one thing pending on a Clock, as [Clock.Pending] reports
// it.
type Waiter struct {
	// Kind says what is waiting.
	Kind Kind
	// Deadline is when it is due (for a ticker, its next tick).
	Deadline time.Time
	// Delay is the duration asked for when it was last armed (for a
	// ticker, its interval).
	Delay time.Duration
	// Period is a ticker's interval; 0 for everything else.
	Period time.Duration
	// Site is the "file.go:42" of the user's code that last armed it: the
	// call to Sleep, After, NewTimer, AfterFunc, NewTicker, WithTimeout, or
	// the latest Reset.
	Site string

	start time.Time
}

// String describes the waiter on one line, with durations formatted by
// schedfmt and the deadline as an offset from the clock's start, for example
// "Ticker every 1s, next at +3s, armed at worker_test.go:41" or
// "Sleep 500ms, due at +1.5s, armed at retry_test.go:12".
func (w Waiter) String() string {
	if w.Kind == KindTicker {
		return "Ticker every " + schedfmt.Duration(w.Period) + ", next at " + w.offset() + ", armed at " + w.Site
	}
	return w.Kind.String() + " " + schedfmt.Duration(w.Delay) + ", due at " + w.offset() + ", armed at " + w.Site
}

func (w Waiter) offset() string { return offset(w.Deadline.Sub(w.start)) }

// offset formats d, an offset from a clock's start, as "+1.5s" or "-1h".
func offset(d time.Duration) string {
	if d < 0 {
		return "-" + schedfmt.Duration(-d)
	}
	return "+" + schedfmt.Duration(d)
}
