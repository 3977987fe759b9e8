package retrytest_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/retrytest"
)

// fixtureT is a retrytest.FixtureT that keeps its cleanups for the test
// to run, and records what is reported.
type fixtureT struct {
	fakeT
	cleanups []func()
}

func (f *fixtureT) Cleanup(fn func())              { f.cleanups = append(f.cleanups, fn) }
func (f *fixtureT) Logf(string, ...any)            {}
func (f *fixtureT) Fatalf(format string, a ...any) { f.Errorf(format, a...); f.FailNow() }

func (f *fixtureT) runCleanups() {
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
}

// Every fake of retrykit, used the way tests use them, leaves no goroutine
// behind: VerifyNoLeaks needs no ignores for them. This is the test that
// keeps leakIgnores empty.
func TestOwnFakesNeedNoIgnores(t *testing.T) {
	ft := &fixtureT{}
	retrytest.VerifyNoLeaks(ft)

	t.Run("fakeclock and transport", func(t *testing.T) {
		clk := fakeclock.New(t, fakeclock.WithoutLeakCheck()) // for the parked Sleep below
		tr := retrytest.NewTransport(t, retrytest.Respond(503).Latency(time.Second), retrytest.Respond(200).Latency(time.Hour)).WithClock(clk)
		clk.AfterFunc(time.Second, func() {})
		tick := clk.NewTicker(time.Second)
		defer tick.Stop()
		ctx, cancel := clk.WithTimeout(context.Background(), 1500*time.Millisecond)
		defer cancel()
		done := make(chan error, 1)
		go func() {
			c := newRetryClient(tr)
			c.clock = clk
			_, err := c.get(ctx, apiURL) // the second request's latency outlives the deadline
			done <- err
		}()
		clk.Step(2 * time.Second)
		if err := <-done; err == nil {
			t.Errorf("get = nil, want the deadline")
		}
		clk.Sleep(0)
		go clk.Sleep(time.Hour) // parked until the clock's Cleanup releases it
	})
	t.Run("bubble", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			tr := retrytest.NewTransport(t, retrytest.Respond(429).RetryAfter(time.Second), retrytest.Respond(200))
			sw := retrytest.NewStopwatch()
			sw.Attempt()
			c := &http.Client{Transport: tr, Timeout: time.Minute}
			for range 2 {
				resp, err := c.Get(apiURL)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				retrytest.Step(time.Second)
			}
		})
	})
	ft.runCleanups()
	if len(ft.Errors) > 0 {
		t.Errorf("VerifyNoLeaks reported: %s", ft.Errors)
	}
}

// The check finds a goroutine started after the snapshot. It runs in a
// bubble so that goleak's retries sleep on the bubble's clock, not for real.
func TestLeakCheckerFindsLeak(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		check := retrytest.LeakChecker(nil)
		release := make(chan struct{})
		go retryForever(release)
		err := check()
		close(release)
		if err == nil {
			t.Fatal("leak check = nil, want the leaked goroutine")
		}
		text := err.Error()
		for _, want := range []string{"retrytest: goroutines leaked by the test: found unexpected goroutines", "retrytest_test.retryForever"} {
			if !strings.Contains(text, want) {
				t.Errorf("leak report does not contain %q:\n%s", want, text)
			}
		}
	})
}

func retryForever(release <-chan struct{}) { <-release }

func TestVerifyNoLeaksInBubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ft := &fixtureT{}
		retrytest.VerifyNoLeaks(ft)
		if len(ft.cleanups) != 0 || len(ft.Errors) != 1 {
			t.Fatalf("VerifyNoLeaks in a bubble: %d cleanups, errors %q; want none and one error", len(ft.cleanups), ft.Errors)
		}
		golden.Check(t, "harness_leak_in_bubble", ft.Errors[0]+"\n")
	})
}

func TestLeakHints(t *testing.T) {
	report := func(frames ...string) string {
		var b strings.Builder
		b.WriteString("found unexpected goroutines:\n")
		for i, f := range frames {
			fmt.Fprintf(&b, "[Goroutine %d in state select, with %s on top of the stack:\n]\n", i+10, f)
		}
		return b.String()
	}
	if got := retrytest.LeakHints(report("main.worker")); got != "" {
		t.Errorf("LeakHints(unknown leak) = %q, want \"\"", got)
	}
	got := retrytest.LeakHints(report("net/http.setRequestCancel.func4", "net/http.(*persistConn).readLoop",
		"time.Sleep", "github.com/retrykit/retrykit/fakeclock.(*Clock).Sleep", "github.com/retrykit/retrykit/retrytest.(*Transport).RoundTrip"))
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
		check := retrytest.LeakChecker(nil)
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
		if got := strings.Contains(retrytest.LeakHints(report), hint); got != tc.want {
			t.Errorf("state %q: hint given = %v, want %v", tc.state, got, tc.want)
		}
	}
}
