// Package leakhint explains the goroutine leaks retry tests usually have:
// given go.uber.org/goleak's report, it adds what to do about each leak it
// recognises, for the conformance suite's NoLeaks property.
package leakhint

import (
	"fmt"
	"strings"

	"go.uber.org/goleak"
)

// Find runs goleak.Find with opts and returns its report, headed by what
// and followed by the hints for the leaks it recognises, or nil when no
// goroutine leaked.
func Find(what string, opts ...goleak.Option) error {
	err := goleak.Find(opts...)
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %v%s", what, err, Hints(err.Error()))
}

// hint explains a leak recognised by a marker in goleak's report: a
// function in its stack, or the state of its goroutine.
type hint struct {
	marker string
	text   string
}

var hints = []hint{
	{"net/http.setRequestCancel", "a response body was never closed while the http.Client had a Timeout: " +
		"close every resp.Body, including those of the responses a retry loop discards"},
	{"net/http.(*persistConn)", "an idle keep-alive connection: close the httptest.Server or call CloseIdleConnections; " +
		"inside a synctest bubble such a connection hangs the test (golang/go#78492), so use httpscript.Transport"},
	{"time.Sleep", "a goroutine sleeping in real time, such as a retry loop between attempts: " +
		"cancel its context before the test ends, and drive its waits with a fake clock or a synctest bubble"},
	{"fakeclock.(*Clock)", "a goroutine parked on a fakeclock.Clock: the clock's Cleanup releases it, " +
		"so start the leak check before fakeclock.New (goleak.VerifyNone in a defer, or first in TestMain)"},
	{"httpscript.(*Transport).RoundTrip", "a request still waiting out a Reply.Latency: cancel its context"},
	// goleak prints "in state chan send", "… chan send, 2 minutes", or
	// "… chan send (durable), synctest bubble 1".
	{"in state chan send", "a goroutine blocked sending on a channel that nobody receives from any more, " +
		"usually the call of an attempt that timed out, whose result the retry loop stopped waiting for: " +
		"make the channel buffered (make(chan T, 1)) so the send never blocks, or select on the attempt's ctx.Done() beside the send"},
}

// Hints returns a "\nhints:" section for the leaks it recognises in a
// goleak report, or "".
func Hints(report string) string {
	var b strings.Builder
	for _, h := range hints {
		if strings.Contains(report, h.marker) {
			b.WriteString("\n  - " + h.text)
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "\nhints:" + b.String()
}
