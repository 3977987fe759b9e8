package settle_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/internal/goheader"
	"github.com/retrykit/retrykit/internal/settle"
)

// The states of the runtime's table waitReasonStrings and its statuses, as
// runtime/runtime2.go and runtime/traceback.go print them, each with the
// class the settle must give it; and states no Go prints, which must be
// unrecognized, never guessed busy or idle.
func TestClassOfEveryState(t *testing.T) {
	idle := []string{"chan receive", "chan send", "chan receive (nil chan)", "chan send (nil chan)",
		"select", "select (no cases)", "sync.Cond.Wait", "sync.Mutex.Lock", "sync.RWMutex.RLock",
		"sync.RWMutex.Lock", "sync.WaitGroup.Wait", "coroutine",
		// inside a bubble the runtime adds " (durable)": stripped
		"chan receive (durable)", "select (durable)", "sync.WaitGroup.Wait (durable)"}
	busy := []string{"running", "runnable", "syscall", "waiting", "preempted", "copystack", "sleep",
		"IO wait", "semacquire", "GC assist marking", "GC assist wait", "GC sweep wait",
		"GC scavenge wait", "GC worker (idle)", "GC worker (active)", "GC mark termination",
		"GC weak to strong wait", "garbage collection", "garbage collection scan",
		"wait for GC cycle", "stopping the world", "flushing proc caches", "force gc (idle)",
		"finalizer wait", "cleanup wait", "GOMAXPROCS updater (idle)", "dumping heap", "panicwait",
		"debug call", "trace reader (blocked)", "trace goroutine status", "trace proc status",
		"page trace flush", "synctest.Run", "synctest.Wait", "running (scan)"}
	unknown := []string{"chan frobnicate", "chan receive (quantum)", "timer wait", "Sleep", "select(no cases)", "unknown wait reason"}
	check := func(state string, want settle.Class) {
		t.Helper()
		gs := settle.Parse([]byte("goroutine 9 [" + state + ", 3 minutes]:\nmain.f()\n\t/x.go:1 +0x1\n"))
		if len(gs) != 1 {
			t.Fatalf("Parse of a block in state %q = %d goroutines, want 1", state, len(gs))
		}
		if got := gs[0].Class(); got != want {
			t.Errorf("class of state %q = %s, want %s", state, got, want)
		}
	}
	for _, s := range idle {
		check(s, settle.Idle)
	}
	for _, s := range busy {
		check(s, settle.Busy)
	}
	for _, s := range unknown {
		check(s, settle.Unrecognized)
	}
}

// settleOnce settles with a budget of 10s of real time and returns the
// real time it took and the error.
func settleOnce(t *testing.T) (time.Duration, error) {
	t.Helper()
	o := settle.NewOracle()
	t0 := time.Now()
	err := o.Settle(context.Background(), time.Now().Add(10*time.Second))
	return time.Since(t0), err
}

// A goroutine of the test in a state no Go release this package knows
// prints (a reworded wait reason, through the parser's seam): the settle
// fails at once, naming the goroutine, the state and the Go release, not
// after its 10s budget as if the goroutine were busy.
func TestUnknownStateFailsTheSettleAtOnce(t *testing.T) {
	id, stop := park()
	defer stop()
	defer settle.SetDumpHook(settle.RewriteBlock(id, "[chan receive", "[chan frobnicate"))()
	took, err := settleOnce(t)
	var u *settle.Untrusted
	if !errors.As(err, &u) {
		t.Fatalf("Settle = %v, want an *Untrusted", err)
	}
	want := fmt.Sprintf(`goroutine %d is in the state "chan frobnicate", which is neither among the states this package knows to be idle nor among those it knows to be busy`, id)
	if u.Problem != want || u.Go != runtime.Version() || !strings.HasPrefix(u.Saw, fmt.Sprintf("goroutine %d [chan frobnicate]:\n", id)) {
		t.Errorf("Settle's error = %+v, want Problem %q, Go %q and the goroutine's block", u, want, runtime.Version())
	}
	if !strings.HasPrefix(err.Error(), "settle: the goroutine dump of "+runtime.Version()+" does not read as this package expects: ") {
		t.Errorf("Settle's error reads %q", err)
	}
	if took >= 5*time.Second {
		t.Errorf("Settle took %v: it waited out its budget instead of failing at once", took)
	}
}

// A header the parser cannot read (through the parser's seam) makes the
// settle fail at once: skipped, the goroutine would be missing, and the
// settle could end while it runs.
func TestUnreadableHeaderFailsTheSettleAtOnce(t *testing.T) {
	id, stop := park()
	defer stop()
	defer settle.SetDumpHook(settle.RewriteBlock(id, "[chan receive]:", "{chan receive}:"))()
	took, err := settleOnce(t)
	var u *settle.Untrusted
	if !errors.As(err, &u) {
		t.Fatalf("Settle = %v, want an *Untrusted", err)
	}
	if want := fmt.Sprintf("goroutine %d {chan receive}:", id); u.Saw != want || !strings.Contains(u.Problem, `header does not read as "goroutine N [state]:"`) {
		t.Errorf("Settle's error = %+v, want the header problem and Saw %q", u, want)
	}
	if took >= 5*time.Second {
		t.Errorf("Settle took %v: it waited out its budget instead of failing at once", took)
	}
}

// The self-check passes on the running Go, in well under 5ms outside the
// race detector (the figure is logged, not asserted: speed is measured in
// BenchmarkSelfCheck).
func TestSelfCheckPassesOnThisGo(t *testing.T) {
	defer settle.SetDumpHook(func(b []byte) []byte { return b })() // reruns it
	if err := settle.SelfCheck(); err != nil {
		t.Fatal(err)
	}
	t.Logf("self-check: %v", settle.SelfCheckCost())
}

func BenchmarkSelfCheck(b *testing.B) {
	for b.Loop() {
		restore := settle.SetDumpHook(func(d []byte) []byte { return d })
		if err := settle.SelfCheck(); err != nil {
			b.Fatal(err)
		}
		restore()
	}
}

// Each thing the self-check relies on, reworded in the dump as a Go
// release might (through the parser's seam), makes it fail, naming what
// it saw.
func TestSelfCheckCatchesARewordedDump(t *testing.T) {
	for _, tc := range []struct {
		name, old, new string
		want           string
	}{
		{"a wait reason", "[sync.Mutex.Lock", "[sync.Mutex.Acquire",
			`a goroutine the self-check parked in sync.Mutex.Lock does not read as expected: its state reads as "sync.Mutex.Acquire", want "sync.Mutex.Lock"`},
		{"the created-by line", "\ncreated by ", "\nspawned by ",
			`does not read as expected: its "created by" line names goroutine 0 as its parent, want `},
		{"the read's frame", "internal/poll.(*pollDesc).waitRead", "internal/poll.(*pollDesc).awaitRead",
			"a goroutine the self-check parked in a read from a pipe does not read as expected: its class is busy, want IO wait"},
		{"time.Sleep's frame", "\ntime.Sleep(", "\ntime.Nap(",
			"a goroutine the self-check parked in time.Sleep does not read as expected: no time.Sleep frame on its stack"},
		{"the header", "goroutine ", "Goroutine ",
			`a goroutine's header does not read as "goroutine N [state]:"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			restore := settle.SetDumpHook(func(d []byte) []byte { return bytes.ReplaceAll(d, []byte(tc.old), []byte(tc.new)) })
			err := settle.SelfCheck()
			restore()
			var u *settle.Untrusted
			if !errors.As(err, &u) || !strings.Contains(u.Problem, tc.want) || u.Go != runtime.Version() {
				t.Fatalf("SelfCheck() = %v, want an *Untrusted of %s saying %q", err, runtime.Version(), tc.want)
			}
		})
	}
}

// Should the detector misjudge (through its seam) and the oracle run
// inside a bubble, beside a goroutine that spins (so the bubble's clock
// never moves and a real-time bound never passes), its polling still
// ends: it sees time stand still and says it runs in a bubble — before the
// process's self-check (which then starts no goroutine there), and in the
// settle's own loop once the self-check has passed.
func TestOraclePollEndsInsideABubble(t *testing.T) {
	for _, checked := range []bool{false, true} {
		t.Run(fmt.Sprintf("self-check passed %v", checked), func(t *testing.T) {
			defer settle.SetDumpHook(func(d []byte) []byte { return d })() // a fresh self-check
			if checked {
				if err := settle.SelfCheck(); err != nil {
					t.Fatal(err)
				}
			}
			synctest.Test(t, func(t *testing.T) {
				defer goheader.Misjudge()()
				var stop atomic.Bool
				spun := make(chan struct{})
				go func() {
					defer close(spun)
					for !stop.Load() {
					}
				}()
				o := settle.NewOracle()
				err := o.Settle(context.Background(), time.Now().Add(time.Second))
				stop.Store(true)
				<-spun
				if !errors.Is(err, settle.ErrInBubble) {
					t.Fatalf("Settle inside a bubble, the detector misjudging = %v, want ErrInBubble", err)
				}
			})
		})
	}
}
