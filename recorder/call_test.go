package recorder_test

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/bubble"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/internal/faket"
	"github.com/retrykit/retrykit/recorder"
)

func TestStartMisuse(t *testing.T) {
	clk := fakeclock.New(t)
	for _, tc := range []struct {
		fn   func()
		want string
	}{
		{func() { recorder.Start(clk, nil) }, "recorder: Start: nil func"},
		{func() { recorder.Start(nil, func() error { return nil }) }, "recorder: Start: nil clock outside a testing/synctest bubble, where the call would be timed in real time; " +
			"pass the fake clock the code under test waits on, or call Start inside the function given to synctest.Test"},
	} {
		if got := faket.PanicText(tc.fn); got != tc.want {
			t.Errorf("panic %q, want %q", got, tc.want)
		}
	}
}

// TestCallResultThroughClosure: a result other than the error is read
// through the closure once Returned says so.
func TestCallResultThroughClosure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var n int
		call := recorder.Start(nil, func() error {
			time.Sleep(time.Second)
			n = 42
			return fmt.Errorf("done after %d", n)
		})
		if call.Returned() || call.String() != "running at 0s" {
			t.Errorf("call = %v, want running at 0s", call)
		}
		bubble.SleepAndWait(time.Second)
		if !call.Returned() || n != 42 || call.At() != time.Second || call.Err().Error() != "done after 42" {
			t.Errorf("call = %v, n = %d, want returned at 1s with n = 42", call, n)
		}
	})
}
