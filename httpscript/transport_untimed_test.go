package httpscript_test

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

// A Transport used outside a synctest bubble without a clock cannot time
// its requests: real time passes between them. Every text it gives — a
// check's table, String, the report of an unexpected request — shows the
// order of the attempts without offsets, so it reads the same on every
// run; a check of times fails asking for a clock (issue 17).
func TestTransportUntimed(t *testing.T) {
	const url = "https://api.example.com/v1/x"
	ft := &fakeT{}
	tr := httpscript.NewTransport(ft, httpscript.Respond(503), httpscript.Respond(200))
	send(tr, "GET", url, "")
	send(tr, "GET", url, "")
	send(tr, "POST", url, "{}") // unexpected: the script is done

	for i, a := range attemptsOf(tr) {
		if a.Index != i+1 || a.At != 0 || a.Delay != 0 {
			t.Errorf("Attempts()[%d] = %+v, want Index %d with no offset and no delay", i, a, i+1)
		}
	}
	if len(ft.Errors) != 1 {
		t.Fatalf("Errorf called %d times, want once for the unexpected request: %q", len(ft.Errors), ft.Errors)
	}
	var b strings.Builder
	section := func(name, text string) { b.WriteString("== " + name + "\n" + text + "\n") }
	section("unexpected request", ft.Errors[0])
	section("String", tr.String())
	for _, c := range []struct {
		name string
		err  error
	}{
		{"CheckAttempts(tr, 2)", retrytest.CheckAttempts(tr, 2)},
		{"CheckAttemptsAt(tr, 0, 7s, 14s)", retrytest.CheckAttemptsAt(tr, 0, 7*time.Second, 14*time.Second)},
		{"CheckDelays(tr, 7s)", retrytest.CheckDelays(tr, 7*time.Second)},
		{"CheckDelaysWithin(tr, [5s, 10s], [5s, 10s])", retrytest.CheckDelaysWithin(tr,
			retrytest.Window{Min: 5 * time.Second, Max: 10 * time.Second}, retrytest.Window{Min: 5 * time.Second, Max: 10 * time.Second})},
		{"CheckTotalDelay(tr, 14s)", retrytest.CheckTotalDelay(tr, 14*time.Second)},
		{"CheckCappedAt(tr, 7s)", retrytest.CheckCappedAt(tr, 7*time.Second)},
		{"CheckSpread(tr, [0s, 10s])", retrytest.CheckSpread(tr, retrytest.Spread{Range: retrytest.Window{Max: 10 * time.Second}})},
		{"CheckStopped(tr, call, 2s)", retrytest.CheckStopped(tr, recorder.Start(fakeclock.New(t), func() error { return context.DeadlineExceeded }),
			retrytest.Stop{At: 2 * time.Second, Err: context.DeadlineExceeded})},
	} {
		if c.err == nil {
			t.Errorf("%s = nil, want an error", c.name)
			continue
		}
		section(c.name, c.err.Error())
	}
	golden.Check(t, "harness_transport_untimed", b.String())

	// A check that needs no times still passes.
	retrytest.AssertAttempts(t, tr, 3)
}

// A transport made outside a bubble but used inside one times its
// requests on the bubble's clock, from the first request, as before.
func TestTransportMadeOutsideUsedInBubble(t *testing.T) {
	tr := httpscript.NewTransport(t, httpscript.Respond(503), httpscript.Respond(200))
	synctest.Test(t, func(t *testing.T) {
		send(tr, "GET", "https://api.example.com/x", "")
		time.Sleep(7 * time.Second)
		send(tr, "GET", "https://api.example.com/x", "")
	})
	retrytest.AssertAttemptsAt(t, tr, 0, 7*time.Second)
}
