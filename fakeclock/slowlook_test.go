package fakeclock_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/retrykit/retrykit/fakeclock"
)

// A clock whose looks at the goroutines cost more than the threshold, with
// at least the goroutine count, says so once — the figure, the goroutine
// count, the bubble alternative — and not again at later advances; below
// either threshold it says nothing.
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
		fakeclock.SetSlowLook(t, 0, 0)
		ft := &fakeT{}
		advanceTwice(ft)
		logs := ft.logged()
		want := regexp.MustCompile(`^fakeclock: a look at the goroutines costs \d[^ ]*s here, with \d+ goroutines in the process: an advance outside a synctest bubble takes one look per fired timer \(the runtime's goroutine dump, which grows with the goroutines\); inside a bubble \(synctest\.Test\) a fired timer costs about a microsecond$`)
		if len(logs) != 1 || !want.MatchString(logs[0]) {
			t.Errorf("logs = %q, want one line matching %s", logs, want)
		}
	})
	t.Run("fewer goroutines than the count", func(t *testing.T) {
		fakeclock.SetSlowLook(t, 0, 1<<30)
		ft := &fakeT{}
		advanceTwice(ft)
		if logs := ft.logged(); len(logs) != 0 {
			t.Errorf("logs = %q, want none", logs)
		}
	})
	t.Run("below it", func(t *testing.T) {
		fakeclock.SetSlowLook(t, time.Hour, 0)
		ft := &fakeT{}
		advanceTwice(ft)
		if logs := ft.logged(); len(logs) != 0 {
			t.Errorf("logs = %q, want none", logs)
		}
	})
}

// An advance that fails to settle says what its looks cost, when they are
// slow, whatever the goroutine count; when they are not, it says nothing
// of it.
func TestSlowLooksInTheFailure(t *testing.T) {
	for _, slow := range []bool{true, false} {
		t.Run(fmt.Sprintf("slow %v", slow), func(t *testing.T) {
			if slow {
				fakeclock.SetSlowLook(t, 0, 1<<30)
			} else {
				fakeclock.SetSlowLook(t, time.Hour, 0)
			}
			clk := fakeclock.New(t)
			var stop atomic.Bool
			exited := make(chan struct{})
			go func() {
				defer close(exited)
				spin(&stop)
			}()
			defer func() { <-exited }()
			defer stop.Store(true)
			ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
			defer cancel()
			err := clk.AdvanceAndDrain(ctx, time.Second)
			if !errors.Is(err, fakeclock.ErrNotSettled) {
				t.Fatalf("AdvanceAndDrain = %v, want ErrNotSettled", err)
			}
			const note = "\nfakeclock: a look at the goroutines costs "
			if got := strings.Contains(err.Error(), note); got != slow {
				t.Errorf("the failure names the look's cost: %v, want %v:\n%s", got, slow, err)
			}
		})
	}
}
