package fakeclock_test

import (
	"context"
	"errors"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/internal/goheader"
	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/internal/settle"
)

// normalize makes an advance's failure comparable across runs and
// machines: goroutine numbers, the Go release and the stack's frames
// (paths, lines, addresses) are replaced or dropped.
func normalize(msg string) string {
	msg = strings.ReplaceAll(msg, runtime.Version(), "GOVERSION")
	msg = regexp.MustCompile(`goroutine \d+`).ReplaceAllString(msg, "goroutine N")
	var kept []string
	frames := false
	for _, line := range strings.Split(msg, "\n") {
		switch {
		case strings.HasPrefix(line, "goroutine N ["), strings.HasPrefix(line, "goroutine N {"):
			frames = true
			kept = append(kept, line)
			continue
		case strings.HasPrefix(line, "The settle outside a bubble"):
			frames = false
		}
		if !frames {
			kept = append(kept, line)
		}
	}
	return strings.Join(kept, "\n")
}

// retrier waits on the clock in a goroutine of its own, and reports its
// goroutine number.
func retrier(t *testing.T, clk *fakeclock.Clock) (id int64, done chan struct{}) {
	ids, done := make(chan int64), make(chan struct{})
	go func() {
		defer close(done)
		id, _ := goheader.Current()
		ids <- id
		<-clk.After(500 * time.Millisecond)
	}()
	return <-ids, done
}

// finish lets the retrier end once the dump reads as usual again: the
// failed advance fired no timer.
func finish(t *testing.T, clk *fakeclock.Clock, done chan struct{}) {
	t.Helper()
	if err := clk.AdvanceAndDrain(context.Background(), time.Second); err != nil {
		t.Fatalf("AdvanceAndDrain with the dump as usual = %v", err)
	}
	<-done
}

// The code under test waits in a state no Go release this retrykit knows
// prints (a reworded wait reason, through the parser's seam): the advance
// fails at once — not after its 10s settle budget — with ErrDumpUnreadable,
// the Go release, what the dump showed, and the ways out.
func TestAdvanceFailsAtOnceOnAnUnknownState(t *testing.T) {
	clk := fakeclock.New(t)
	id, done := retrier(t, clk)
	restore := settle.SetDumpHook(settle.RewriteBlock(id, "[chan receive", "[chan frobnicate"))
	t0 := time.Now()
	err := clk.AdvanceAndDrain(context.Background(), time.Second)
	took := time.Since(t0)
	restore()
	finish(t, clk, done)
	if !errors.Is(err, fakeclock.ErrDumpUnreadable) || !errors.Is(err, fakeclock.ErrNotSettled) {
		t.Fatalf("AdvanceAndDrain = %v, want ErrDumpUnreadable and ErrNotSettled", err)
	}
	if took >= 5*time.Second {
		t.Errorf("AdvanceAndDrain took %v: it waited out its settle budget instead of failing at once", took)
	}
	golden.Check(t, "advance_unknown_state", normalize(err.Error())+"\n")
}

// A goroutine header the parser cannot read (through the seam) fails the
// advance at once too: skipped, the goroutine would be missing from the
// settle, which could then end while it runs.
func TestAdvanceFailsAtOnceOnAnUnreadableHeader(t *testing.T) {
	clk := fakeclock.New(t)
	id, done := retrier(t, clk)
	restore := settle.SetDumpHook(settle.RewriteBlock(id, "[chan receive]:", "{chan receive}:"))
	err := clk.AdvanceAndDrain(context.Background(), time.Second)
	restore()
	finish(t, clk, done)
	if !errors.Is(err, fakeclock.ErrDumpUnreadable) {
		t.Fatalf("AdvanceAndDrain = %v, want ErrDumpUnreadable", err)
	}
	golden.Check(t, "advance_unreadable_header", normalize(err.Error())+"\n")
}

// Inside a bubble no dump is read: the same rewrite changes nothing, and
// the advance drains the retry.
func TestAdvanceInABubbleReadsNoDump(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := fakeclock.New(t)
		id, done := retrier(t, clk)
		defer settle.SetDumpHook(settle.RewriteBlock(id, "[chan receive", "[chan frobnicate"))()
		if err := clk.AdvanceAndDrain(context.Background(), time.Second); err != nil {
			t.Fatalf("AdvanceAndDrain in a bubble = %v, want nil", err)
		}
		<-done
	})
}
