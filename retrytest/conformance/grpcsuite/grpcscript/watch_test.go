package grpcscript_test

import (
	"regexp"
	"runtime"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/jonboulle/clockwork"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/retrytest/conformance/grpcsuite/grpcscript"
)

// Outside a bubble a server guards itself: no attempt within 5s of real
// time (here a fake clock's) fails the test, naming the target; not at
// 4.999s; not once an attempt came; never for a server that expects none.
func TestGuardOutsideABubble(t *testing.T) {
	t.Run("no attempt", func(t *testing.T) {
		clk := fakeclock.New(t)
		defer grpcscript.SetGuard(clk, 5*time.Second, func(string) { t.Error("ended a test outside a bubble") })()
		st := newSignalT()
		srv := grpcscript.NewServer(st, grpcscript.Method(emptyCall, grpcscript.Status(codes.Unavailable, "").Times(2), grpcscript.OK()))
		defer srv.Close()
		clk.Step(4999 * time.Millisecond)
		if len(st.reported) != 0 {
			t.Fatalf("reported at 4.999s: %q", <-st.reported)
		}
		clk.Step(time.Millisecond)
		if len(st.reported) != 1 {
			t.Fatalf("%d reports at 5s, want 1", len(st.reported))
		}
		golden.Check(t, "guard_no_attempt", <-st.reported+"\n")
	})
	t.Run("an attempt came", func(t *testing.T) {
		clk := fakeclock.New(t)
		defer grpcscript.SetGuard(clk, 5*time.Second, nil)()
		st := newSignalT()
		srv := grpcscript.NewServer(st, grpcscript.Method(emptyCall, grpcscript.OK()))
		defer srv.Close()
		cc, err := srv.Dial()
		if err != nil {
			t.Fatal(err)
		}
		clk.Step(4999 * time.Millisecond)
		if _, err := client(cc).EmptyCall(t.Context(), &testgrpc.Empty{}); err != nil {
			t.Fatal(err)
		}
		clk.Step(time.Hour)
		if len(st.reported) != 0 {
			t.Errorf("reported after an attempt came: %q", <-st.reported)
		}
	})
	t.Run("no attempt expected", func(t *testing.T) {
		clk := fakeclock.New(t)
		defer grpcscript.SetGuard(clk, 5*time.Second, nil)()
		st := newSignalT()
		srv := grpcscript.NewServer(st, grpcscript.Method(emptyCall))
		defer srv.Close()
		clk.Step(time.Hour)
		if len(st.reported) != 0 {
			t.Errorf("reported for a server whose methods must not be called: %q", <-st.reported)
		}
	})
}

// In a bubble run by Test, a server that no attempt reaches fails the
// test from outside the bubble; if a goroutine of the bubble waits on
// something outside it, the bubble can never move again, and the test
// binary ends, naming that goroutine.
func TestGuardInABubble(t *testing.T) {
	for _, stall := range []bool{false, true} {
		name := map[bool]string{false: "waiting", true: "stalled"}[stall]
		t.Run(name, func(t *testing.T) {
			clk := clockwork.NewFakeClock()
			var ended []string
			defer grpcscript.SetGuard(clk, 5*time.Second, func(msg string) { ended = append(ended, msg) })()
			st := newSignalT()
			outside := make(chan struct{}) // made outside the bubble: a wait on it is not durable
			var report string
			grpcscript.Test(t, func(t *testing.T) {
				defer grpcscript.BindLike(st, t)()
				srv := grpcscript.NewServer(st, grpcscript.Method(emptyCall, grpcscript.OK()))
				defer srv.Close()
				synctest.Wait() // the server waits for a connection
				if stall {
					go func() { <-outside }()
					waitParked(t, "[chan receive, synctest bubble", "TestGuardInABubble")
				}
				report = advanceUntilReported(t, clk, st)
				close(outside)
			})
			// Test has stopped the guard: its report is done.
			if got := len(ended); got != map[bool]int{false: 0, true: 1}[stall] {
				t.Fatalf("the binary was ended %d times", got)
			}
			head, tail, _ := strings.Cut(report, "the bubble has stalled")
			golden.Check(t, "guard_in_a_bubble", strings.TrimSuffix(head, "\n")+"\n")
			if !stall {
				if tail != "" {
					t.Errorf("a bubble that can still move reported stalled:\n%s", report)
				}
				return
			}
			if ended[0] != report {
				t.Errorf("the binary was ended with %q, want the report", ended[0])
			}
			tail = regexp.MustCompile(`goroutine \d+`).ReplaceAllString(tail, "goroutine N")
			tail = regexp.MustCompile(`\(watch_test.go:\d+\)`).ReplaceAllString(tail, "(watch_test.go:L)")
			golden.Check(t, "guard_stalled", "the bubble has stalled"+tail+"\n")
		})
	}
}

// waitParked returns once a goroutine whose header holds state and whose
// stack holds fn is parked: a goroutine just started may not have run.
func waitParked(t *testing.T, state, fn string) {
	t.Helper()
	buf := make([]byte, 1<<20)
	for range 100_000 {
		dump := string(buf[:runtime.Stack(buf, true)])
		for _, g := range strings.Split(dump, "\n\n") {
			if strings.Contains(g, state) && strings.Contains(g, fn) {
				return
			}
		}
		runtime.Gosched()
	}
	t.Fatalf("no goroutine of %s parked in %s", fn, state)
}

// advanceUntilReported moves the guard's clock by its budget until the
// guard reports: it arms its timer asynchronously, outside the bubble,
// where nothing of the bubble can wait for it durably.
func advanceUntilReported(t *testing.T, clk *clockwork.FakeClock, st *signalT) string {
	t.Helper()
	for range 1_000_000 {
		clk.Advance(5 * time.Second)
		select {
		case msg := <-st.reported:
			return msg
		default:
			runtime.Gosched()
		}
	}
	t.Fatal("the guard never reported")
	return ""
}
