package fakeclock_test

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/retrykit/retrykit/fakeclock"
)

// A clock whose looks at the goroutines cost more than the threshold says
// so once — the figure, the goroutine count, the bubble alternative — and
// not again at later advances; below the threshold it says nothing.
func TestSlowLooksAreToldOncePerClock(t *testing.T) {
	advanceTwice := func(ft *fakeT) {
		clk := fakeclock.New(ft)
		done := make(chan struct{})
		go func() {
			defer close(done)
			<-clk.After(100 * time.Millisecond)
			<-clk.After(100 * time.Millisecond)
		}()
		for range 2 {
			if err := clk.AdvanceAndDrain(context.Background(), 100*time.Millisecond); err != nil {
				t.Fatal(err)
			}
		}
		<-done
		if errs := ft.finish(); len(errs) != 0 {
			t.Fatalf("errors: %q", errs)
		}
	}
	t.Run("above the threshold", func(t *testing.T) {
		fakeclock.SetSlowLook(t, 0)
		ft := &fakeT{}
		advanceTwice(ft)
		logs := ft.logged()
		want := regexp.MustCompile(`^fakeclock: a look at the goroutines costs \d[^ ]*s here, with \d+ goroutines in the process: an advance outside a synctest bubble takes one look per fired timer \(the runtime's goroutine dump, which grows with the goroutines\); inside a bubble \(synctest\.Test\) a fired timer costs about a microsecond$`)
		if len(logs) != 1 || !want.MatchString(logs[0]) {
			t.Errorf("logs = %q, want one line matching %s", logs, want)
		}
	})
	t.Run("below it", func(t *testing.T) {
		fakeclock.SetSlowLook(t, time.Hour)
		ft := &fakeT{}
		advanceTwice(ft)
		if logs := ft.logged(); len(logs) != 0 {
			t.Errorf("logs = %q, want none", logs)
		}
	})
}
