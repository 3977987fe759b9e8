// Package goheader reads the header line of a goroutine's stack,
// "goroutine 7 [chan receive, synctest bubble 3]:", and with it tells
// whether the calling goroutine runs inside a testing/synctest bubble. It
// is what the recorder, the scripted transport and the bubble helpers need
// of the runtime's stacks, apart from the settle oracle and its dump
// parser (internal/settle), which build on it.
package goheader

import (
	"bytes"
	"runtime"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/retrykit/retrykit/internal/epoch"
)

// Header is what the header line of a goroutine's stack says.
type Header struct {
	// ID is the goroutine's number.
	ID int64
	// State is the wait reason or status ("chan receive", "running"),
	// without the "(durable)", "(scan)" and "(leaked)" suffixes and
	// without the waiting time, thread lock, bubble and labels. It aliases
	// the line given to Parse.
	State []byte
	// Bubble is the number of the synctest bubble the goroutine belongs
	// to, or 0 outside every bubble.
	Bubble int64
}

// Parse reads a header line, "goroutine 7 [chan receive, 2 minutes,
// synctest bubble 3]:", with or without its newline. It reports false for
// a line that is no header.
func Parse(line []byte) (Header, bool) {
	var h Header
	rest, ok := bytes.CutPrefix(line, []byte("goroutine "))
	if !ok {
		return h, false
	}
	sp := bytes.IndexByte(rest, ' ')
	if sp < 0 {
		return h, false
	}
	id, err := strconv.ParseInt(string(rest[:sp]), 10, 64)
	if err != nil {
		return h, false
	}
	h.ID = id
	rest = rest[sp+1:]
	// Debug tracebacks insert "gp=... m=..." before the bracket.
	open := bytes.IndexByte(rest, '[')
	end := bytes.LastIndex(rest, []byte("]:"))
	if open < 0 || end < open {
		return h, false
	}
	inner := rest[open+1 : end]
	if i := bytes.Index(inner, []byte(" labels:{")); i >= 0 {
		inner = inner[:i]
	}
	if _, after, found := bytes.Cut(inner, []byte(", synctest bubble ")); found {
		if i := bytes.IndexByte(after, ','); i >= 0 {
			after = after[:i]
		}
		h.Bubble, _ = strconv.ParseInt(string(after), 10, 64)
	}
	state := inner
	if i := bytes.IndexByte(state, ','); i >= 0 {
		state = state[:i]
	}
	for _, suffix := range []string{" (durable)", " (scan)", " (leaked)"} {
		state = bytes.TrimSuffix(state, []byte(suffix))
	}
	h.State = state
	return h, true
}

// Current returns the calling goroutine's number and the number of the
// synctest bubble it runs in (0 outside every bubble), read from the header
// of its own stack.
func Current() (id, bubble int64) {
	var buf [256]byte
	n := runtime.Stack(buf[:], false)
	line := buf[:n]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	h, ok := Parse(line)
	if !ok {
		return 0, 0
	}
	return h.ID, h.Bubble
}

// InBubble reports whether the calling goroutine runs inside a
// testing/synctest bubble. It is the one bubble detector of retrykit:
// fakeclock, the settle oracle, the recorder, the transport and the bubble
// package all ask it.
//
// It reads two signals and says yes when either does:
//
//   - the header of the goroutine's own stack, which inside a bubble ends
//     in ", synctest bubble N]:" — exact at the instant it is asked, free of
//     side effects and about a microsecond; but runtime text, which a Go
//     release could reword;
//   - the time: testing/synctest documents that a bubble's clock starts at
//     midnight UTC 2000-01-01 and moves only when every goroutine of the
//     bubble is blocked, so inside one time.Now is in the year 2000 for the
//     first year of fake time, while no machine that runs Go 1.25 or later
//     has a real clock there.
//
// The header is the signal that holds for any test (one that waits out
// more than a year of fake time included); the time is the documented one,
// and keeps a test on its first year of fake time right if the header's
// wording ever changes. The other ways of telling a bubble are worse: a
// recovered panic of synctest.Wait blocks until the bubble is idle and
// panics when two goroutines call it, and "time stands still" needs two
// reads with work between them (the settle oracle still uses that last one
// as its backstop).
func InBubble() bool {
	if misjudge.Load() {
		return false
	}
	if headerBubble() != 0 {
		return true
	}
	return IsBubbleTime(time.Now())
}

// IsBubbleTime reports whether t lies in the first year of a synctest
// bubble's clock: from midnight UTC 2000-01-01 (epoch.Time), included, to
// 2001-01-01, excluded. (bubble.CheckTime, which judges a time a policy
// captured, allows ten years either side: a captured time may lie deep in
// a bubble's fake time; a detector must not guess that far.)
func IsBubbleTime(t time.Time) bool {
	return !t.Before(epoch.Time) && t.Before(epoch.Time.AddDate(1, 0, 0))
}

// headerBubble returns the bubble number in the header of the calling
// goroutine's stack, or 0. A test may blind it (see [BlindHeader]).
func headerBubble() int64 {
	if blindHeader.Load() {
		return 0
	}
	_, bubble := Current()
	return bubble
}

// blindHeader, when set, makes InBubble ignore the bubble number in the
// goroutine's header: the seam through which a test shows what a Go
// release that rewords the header would do.
var blindHeader atomic.Bool

// BlindHeader makes [InBubble] ignore the stack header's bubble number
// until the returned function is called. For tests only.
func BlindHeader() (restore func()) {
	blindHeader.Store(true)
	return func() { blindHeader.Store(false) }
}

// misjudge, when set, makes InBubble report false everywhere.
var misjudge atomic.Bool

// Misjudge makes [InBubble] report false, inside a bubble too, until the
// returned function is called: the seam through which a test runs the
// settle oracle inside a bubble, as a detector that misjudged would, to
// show that its polls stay bounded there. For tests only.
func Misjudge() (restore func()) {
	misjudge.Store(true)
	return func() { misjudge.Store(false) }
}
