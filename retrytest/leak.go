package retrytest

import (
	"fmt"
	"os"
	"strings"

	"go.uber.org/goleak"
)

// leakIgnores are the goleak options retrykit's own fakes need. There are
// none, and leak_test.go keeps it that way: the Transport opens no
// connection and starts no goroutine (a Reply.Latency wait runs on the
// caller's goroutine); fakeclock's AfterFunc goroutines end when their
// callbacks return, and its Cleanup releases every goroutine parked on the
// clock; a synctest bubble does not end until its goroutines have. Add an
// ignore here only with a test that shows why.
var leakIgnores []goleak.Option

// VerifyNoLeaks fails t at the end of the test if a goroutine started
// during the test is still running: a retry loop still sleeping, a request
// still in flight, a response body's timer goroutine, a keep-alive
// connection. It wraps go.uber.org/goleak: it takes a snapshot of the
// goroutines running when it is called (goleak.IgnoreCurrent), so
// goroutines of earlier tests do not count, and registers a t.Cleanup that
// runs goleak.Find with opts, retrying for a moment while goroutines exit.
// The failure lists each leaked goroutine with its stack and, for the
// leaks retry tests usually have, what to do about them: among them a
// goroutine left blocked in a channel send after its attempt timed out
// (the call's result sent on an unbuffered channel the loop no longer
// reads).
//
// Call it first in the test, before fakeclock.New and anything else that
// registers a Cleanup: cleanups run last-registered first, so the leak
// check then runs after the fakes have released their goroutines.
//
//	func TestRetry(t *testing.T) {
//		retrytest.VerifyNoLeaks(t)
//		clk := fakeclock.New(t)
//		...
//	}
//
// Do not use it in a test that calls t.Parallel, whose neighbours' goroutines
// it would see, nor inside a synctest bubble: synctest.Test already fails a
// test whose bubble goroutines outlive it, and VerifyNoLeaks reports such a
// call as a mistake. For a whole package, use [VerifyTestMain].
//
// retrykit's fakes need no goleak ignores; opts are for the code under
// test's own long-lived goroutines (goleak.IgnoreTopFunction, …).
func VerifyNoLeaks(t FixtureT, opts ...goleak.Option) {
	t.Helper()
	if InBubble() {
		t.Errorf("retrytest: VerifyNoLeaks: called inside a synctest bubble; synctest.Test already fails the test " +
			"if a goroutine of the bubble outlives it. Call VerifyNoLeaks before synctest.Test, in the test itself")
		return
	}
	check := leakChecker(opts)
	t.Cleanup(func() {
		t.Helper()
		if err := check(); err != nil {
			t.Errorf("%v", err)
		}
	})
}

// leakChecker snapshots the current goroutines and returns a function that
// reports those started since, with hints.
func leakChecker(opts []goleak.Option) func() error {
	all := append([]goleak.Option{goleak.IgnoreCurrent()}, leakIgnores...)
	all = append(all, opts...)
	return func() error {
		err := goleak.Find(all...)
		if err == nil {
			return nil
		}
		return fmt.Errorf("retrytest: goroutines leaked by the test: %v%s", err, leakHints(err.Error()))
	}
}

// VerifyTestMain runs the tests of a package and then fails the run if any
// goroutine is left over, like goleak.VerifyTestMain, with retrykit's
// hints for the usual retry leaks. Use it as the whole TestMain:
//
//	func TestMain(m *testing.M) { retrytest.VerifyTestMain(m) }
//
// It exits the process with the tests' exit code, or 1 after a leak.
func VerifyTestMain(m goleak.TestingM, opts ...goleak.Option) {
	code := m.Run()
	if code == 0 {
		all := append(append([]goleak.Option{}, leakIgnores...), opts...)
		if err := goleak.Find(all...); err != nil {
			fmt.Fprintf(os.Stderr, "retrytest: goroutines leaked by the tests: %v%s\n", err, leakHints(err.Error()))
			code = 1
		}
	}
	os.Exit(code)
}

// leakHint explains a leak recognised by a marker in goleak's report: a
// function in its stack, or the state of its goroutine.
type leakHint struct {
	marker string
	hint   string
}

var leakHintList = []leakHint{
	{"net/http.setRequestCancel", "a response body was never closed while the http.Client had a Timeout: " +
		"close every resp.Body, including those of the responses a retry loop discards"},
	{"net/http.(*persistConn)", "an idle keep-alive connection: close the httptest.Server or call CloseIdleConnections; " +
		"inside a synctest bubble such a connection hangs the test (golang/go#78492), so use retrytest.Transport"},
	{"time.Sleep", "a goroutine sleeping in real time, such as a retry loop between attempts: " +
		"cancel its context before the test ends, and drive its waits with a fake clock or a synctest bubble"},
	{"fakeclock.(*Clock)", "a goroutine parked on a fakeclock.Clock: the clock's Cleanup releases it, " +
		"so call VerifyNoLeaks before fakeclock.New"},
	{"retrytest.(*Transport).RoundTrip", "a request still waiting out a Reply.Latency: cancel its context"},
	// goleak prints "in state chan send", "… chan send, 2 minutes", or
	// "… chan send (durable), synctest bubble 1".
	{"in state chan send", "a goroutine blocked sending on a channel that nobody receives from any more, " +
		"usually the call of an attempt that timed out, whose result the retry loop stopped waiting for: " +
		"make the channel buffered (make(chan T, 1)) so the send never blocks, or select on the attempt's ctx.Done() beside the send"},
}

// leakHints returns a "\nhints:" section for the leaks it recognises in a
// goleak report, or "".
func leakHints(report string) string {
	var b strings.Builder
	for _, h := range leakHintList {
		if strings.Contains(report, h.marker) {
			b.WriteString("\n  - " + h.hint)
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "\nhints:" + b.String()
}
