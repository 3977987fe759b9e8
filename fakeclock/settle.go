package fakeclock

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/internal/goheader"
	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/internal/settle"
)

// ErrNotSettled is wrapped by the error a draining advance returns when the
// code under test did not settle within the budget: something in the test's
// goroutines kept running, or waited on something other than in-process
// synchronization and the clock.
var ErrNotSettled = errors.New("fakeclock: the code under test did not settle")

// ErrDumpUnreadable is wrapped, with ErrNotSettled, by the error of an
// advance outside a synctest bubble when the running Go describes its
// goroutines in a way the settle does not know: a state that is neither
// idle nor busy to it, a header it cannot read, or a self-check (run once
// per process, before the first settle) whose own parked goroutines do not
// read as expected. The advance fails at once, naming the Go release and
// what the dump showed; inside a bubble no dump is read and nothing changes.
var ErrDumpUnreadable = errors.New("fakeclock: the runtime's goroutine dump does not read as expected")

// DefaultSettleBudget is the real time a settle outside a synctest bubble
// may take when the context passed to the advance has no deadline. It is cut
// to a quarter of the time the test has left when the FixtureT reports a
// deadline (as *testing.T does).
const DefaultSettleBudget = 10 * time.Second

// settler picks the settle layer: a custom function, synctest.Wait inside a
// bubble, or the goroutine-state oracle.
type settler struct {
	c      *Clock
	custom func(context.Context) error
	// bubble is the synctest bubble the clock was made in (-1 when the
	// stack header does not give its number), or 0 outside every bubble.
	bubble int64
	// oracle scopes the goroutines of the test outside a bubble (for the
	// leak check's diagnosis with a custom settle too); nil inside one.
	oracle *settle.Oracle
	// told is set once the clock has said that its looks are slow.
	told *atomic.Bool
}

func newSettler(c *Clock) settler {
	var bubble int64
	if goheader.InBubble() {
		if _, bubble = goheader.Current(); bubble == 0 {
			bubble = -1
		}
	}
	s := settler{c: c, custom: c.opts.settle, bubble: bubble, told: new(atomic.Bool)}
	if bubble == 0 {
		s.oracle = settle.NewOracle()
	}
	return s
}

// settle waits until the code under test has settled, or fails.
func (s *settler) settle(ctx context.Context, op string) error {
	switch {
	case s.custom != nil:
		if err := s.waitCallbacksStarted(ctx, op); err != nil {
			return err
		}
		if err := s.custom(ctx); err != nil {
			return fmt.Errorf("fakeclock: %s: %w", op, err)
		}
		return nil
	case s.bubble != 0:
		if bubbleWait() {
			return nil
		}
		// Outside its bubble, settling would fall back on the oracle
		// with no root goroutine to scope it and without the AfterFunc
		// goroutines the clock did not track: refuse, as the oracle does
		// the other way round.
		return fmt.Errorf("fakeclock: %s: the clock was made inside a synctest bubble and is advanced from outside it; advance it from inside that bubble, or make it outside the bubble", op)
	}
	until, ctxDeadline := s.until(ctx)
	err := s.oracle.Settle(ctx, until)
	s.tellSlowLook()
	if err == nil {
		return nil
	}
	if errors.Is(err, settle.ErrInBubble) {
		// Time inside a bubble is fake: a real-time budget could never
		// end while the oracle polls.
		return fmt.Errorf("fakeclock: %s: the clock was made outside a synctest bubble and is advanced from inside one; make it inside the bubble", op)
	}
	var ut *settle.Untrusted
	if errors.As(err, &ut) {
		return &report{msg: fmt.Sprintf("fakeclock: %s: cannot settle outside a synctest bubble on this Go: %v\n"+
			"The settle outside a bubble reads the runtime's goroutine dump, whose text Go does not promise, and refuses to guess. Ways out:\n"+
			"  - run the test inside a testing/synctest bubble (synctest.Test), where the clock settles with synctest.Wait and reads no dump;\n"+
			"  - or pass fakeclock.WithSettle with a settle of your own;\n"+
			"  - and report the Go release and the text above to retrykit.", op, err), causes: []error{ErrNotSettled, ErrDumpUnreadable, ut}}
	}
	u, ok := err.(*settle.Unsettled)
	if !ok {
		return fmt.Errorf("fakeclock: %s: %w", op, err)
	}
	var msg strings.Builder
	fmt.Fprintf(&msg, "fakeclock: %s: the code under test did not settle within %s of real time (at %s on the clock)", op,
		schedfmt.Duration(u.Elapsed.Round(time.Millisecond)), offset(s.c.Now().Sub(s.c.start)))
	causes := []error{ErrNotSettled}
	if u.Cause != nil {
		msg.WriteString(": " + u.Cause.Error())
		causes = append(causes, u.Cause)
	} else if ctxDeadline {
		msg.WriteString(": " + context.DeadlineExceeded.Error())
		causes = append(causes, context.DeadlineExceeded)
	}
	msg.WriteString("\n" + u.Error())
	msg.WriteString(s.slowLookLine())
	s.c.mu.Lock()
	pending := s.c.pendingLocked()
	s.c.mu.Unlock()
	writePending(&msg, pending)
	return &report{msg: msg.String(), causes: causes}
}

// slowLook is the cost of a look at the goroutines above which a clock
// says, once, what its advances pay outside a bubble; manyGoroutines is
// the goroutine count from which the dump, not the race detector or a
// loaded machine, is what makes a look slow (a look costs a microsecond
// or two per goroutine; under -race a look at three goroutines can cost
// 3ms, which no bubble would fix).
var slowLook, manyGoroutines atomic.Int64

func init() {
	slowLook.Store(int64(time.Millisecond))
	manyGoroutines.Store(100)
}

// tellSlowLook logs once per clock, through its FixtureT, when a look of
// the settle costs more than slowLook with at least manyGoroutines
// goroutines in the process: each fired timer pays one outside a bubble,
// and a long ladder or a fleet then runs slowly for a reason the test
// cannot see. An advance that fails to settle says the same in its error,
// whatever the count (see slowLookLine).
func (s *settler) tellSlowLook() {
	cost, n := s.oracle.LastLook()
	if cost <= time.Duration(slowLook.Load()) || int64(n) < manyGoroutines.Load() || !s.told.CompareAndSwap(false, true) {
		return
	}
	s.c.t.Logf("%s", slowLookNote(cost, n))
}

// slowLookLine is the line a failed settle adds when its last look cost
// more than slowLook, or "".
func (s *settler) slowLookLine() string {
	cost, n := s.oracle.LastLook()
	if cost <= time.Duration(slowLook.Load()) {
		return ""
	}
	return "\n" + slowLookNote(cost, n)
}

// slowLookNote says what a look costs, with how many goroutines, and the
// bubble alternative.
func slowLookNote(cost time.Duration, n int) string {
	return fmt.Sprintf("fakeclock: a look at the goroutines costs %s here, with %d goroutines in the process: an advance outside a synctest bubble takes one look per fired timer (the runtime's goroutine dump, which grows with the goroutines); inside a bubble (synctest.Test) a fired timer costs about a microsecond",
		schedfmt.Duration(cost.Round(10*time.Microsecond)), n)
}

// bubbleWait calls synctest.Wait and reports false if the caller is not in
// a synctest bubble (Wait panics then).
func bubbleWait() (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	synctest.Wait()
	return true
}

// waitCallbacksStarted yields until every AfterFunc goroutine the clock
// started is running, so that a custom settle sees them.
func (s *settler) waitCallbacksStarted(ctx context.Context, op string) error {
	b := s.budget(ctx)
	defer b.stop()
	for {
		s.c.mu.Lock()
		n := s.c.cbStarting
		s.c.mu.Unlock()
		if n == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("fakeclock: %s: %d AfterFunc goroutines did not start: %w", op, n, ctx.Err())
		case <-b.c:
			return &report{msg: fmt.Sprintf("fakeclock: %s: %d AfterFunc goroutines did not start within the settle budget", op, n), causes: []error{ErrNotSettled}}
		default:
			runtime.Gosched()
		}
	}
}

// budget is a real-time limit for a wait whose context has no deadline.
type budget struct {
	c <-chan time.Time
	t *time.Timer
}

func (b budget) stop() {
	if b.t != nil {
		b.t.Stop()
	}
}

// until returns the real time a settle on ctx may last until: ctx's
// deadline (and true), or else the default budget from now. It arms no
// timer, as a settle outside a bubble polls the time itself.
func (s *settler) until(ctx context.Context) (time.Time, bool) {
	if d, ok := ctx.Deadline(); ok {
		return d, true
	}
	return time.Now().Add(s.defaultBudget()), false
}

// budget returns the limit for a wait on ctx: none when ctx has a deadline,
// else DefaultSettleBudget, cut to a quarter of the time the test has left.
// Inside a bubble the timer runs on the bubble's clock, so it fires exactly
// when the bubble is otherwise idle.
func (s *settler) budget(ctx context.Context) budget {
	if _, ok := ctx.Deadline(); ok {
		return budget{}
	}
	d := s.defaultBudget()
	t := time.NewTimer(d)
	return budget{c: t.C, t: t}
}

func (s *settler) defaultBudget() time.Duration {
	d := DefaultSettleBudget
	if s.bubble != 0 {
		return d
	}
	if dt, ok := s.c.t.(interface{ Deadline() (time.Time, bool) }); ok {
		if end, ok := dt.Deadline(); ok {
			if left := time.Until(end) / 4; left < d {
				d = max(left, 50*time.Millisecond)
			}
		}
	}
	return d
}
