package leakhint_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/internal/leakhint"
	"go.uber.org/goleak"
)

// The check finds a goroutine started after the snapshot. It runs in a
// bubble so that goleak's retries sleep on the bubble's clock, not for real.
func TestLeakCheckerFindsLeak(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		snap := goleak.IgnoreCurrent()
		check := func() error { return leakhint.Find("goroutines leaked by the test", snap) }
		release := make(chan struct{})
		go retryForever(release)
		err := check()
		close(release)
		if err == nil {
			t.Fatal("leak check = nil, want the leaked goroutine")
		}
		text := err.Error()
		for _, want := range []string{"goroutines leaked by the test: found unexpected goroutines", "leakhint_test.retryForever"} {
			if !strings.Contains(text, want) {
				t.Errorf("leak report does not contain %q:\n%s", want, text)
			}
		}
	})
}

func retryForever(release <-chan struct{}) { <-release }

func TestLeakHints(t *testing.T) {
	report := func(frames ...string) string {
		var b strings.Builder
		b.WriteString("found unexpected goroutines:\n")
		for i, f := range frames {
			fmt.Fprintf(&b, "[Goroutine %d in state select, with %s on top of the stack:\n]\n", i+10, f)
		}
		return b.String()
	}
	if got := leakhint.Hints(report("main.worker")); got != "" {
		t.Errorf("LeakHints(unknown leak) = %q, want \"\"", got)
	}
	got := leakhint.Hints(report("net/http.setRequestCancel.func4", "net/http.(*persistConn).readLoop",
		"time.Sleep", "github.com/retrykit/retrykit/fakeclock.(*Clock).Sleep", "github.com/retrykit/retrykit/httpscript.(*Transport).RoundTrip"))
	golden.Check(t, "harness_leak_hints", got+"\n")
}

// attemptWithTimeout is the commonest retry leak: the call of an attempt
// runs in a goroutine that sends its result on an unbuffered channel, and
// when the attempt times out the loop stops receiving, so the goroutine
// blocks forever in the send. It also returns the channel, so that the
// test can release the goroutine.
func attemptWithTimeout(ctx context.Context, timeout time.Duration, call func() error) (chan error, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ch := make(chan error)
	go func() { ch <- call() }()
	select {
	case err := <-ch:
		return ch, err
	case <-ctx.Done():
		return ch, ctx.Err()
	}
}

// A goroutine abandoned after an attempt timeout, blocked in a channel
// send, gets a hint of its own (issue 17): the leak check's report ends
// with it.
func TestLeakHintAbandonedSend(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		snap := goleak.IgnoreCurrent()
		check := func() error { return leakhint.Find("goroutines leaked by the test", snap) }
		ch, err := attemptWithTimeout(t.Context(), time.Second, func() error {
			time.Sleep(2 * time.Second) // a slow server
			return nil
		})
		if err != context.DeadlineExceeded {
			t.Fatalf("attempt = %v, want context.DeadlineExceeded", err)
		}
		time.Sleep(2 * time.Second) // the call returns, and blocks in the send
		leak := check()
		<-ch // release it
		if leak == nil {
			t.Fatal("leak check = nil, want the goroutine blocked in the send")
		}
		text := leak.Error()
		if !strings.Contains(text, "in state chan send") || !strings.Contains(text, "attemptWithTimeout") {
			t.Errorf("goleak's report does not show the send of attemptWithTimeout's goroutine:\n%s", text)
		}
		_, hints, _ := strings.Cut(text, "\nhints:")
		golden.Check(t, "harness_leak_abandoned_send", "hints:"+hints+"\n")
	})
}

// The hint for a blocked send reads goleak's state in every form it
// takes, in a bubble and out of one, and not a receive.
func TestLeakHintSendStates(t *testing.T) {
	const hint = "a goroutine blocked sending on a channel that nobody receives from any more"
	for _, tc := range []struct {
		state string
		want  bool
	}{
		{"chan send", true},
		{"chan send, 2 minutes", true},
		{"chan send (durable), synctest bubble 1", true},
		{"chan receive", false},
		{"select", false},
	} {
		report := "found unexpected goroutines:\n[Goroutine 7 in state " + tc.state +
			", with example.com/client.(*Client).attempt.func1 on top of the stack:\n]\n"
		if got := strings.Contains(leakhint.Hints(report), hint); got != tc.want {
			t.Errorf("state %q: hint given = %v, want %v", tc.state, got, tc.want)
		}
	}
}
