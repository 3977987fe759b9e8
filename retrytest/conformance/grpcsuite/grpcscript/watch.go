package grpcscript

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/internal/goheader"
	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest/conformance/grpcsuite/internal/guard"
)

// The guard's clock and budget, and what it does about a stalled bubble:
// the tests replace them.
var (
	guardClock  = clockwork.NewRealClock()
	guardBudget = 5 * time.Second
	endStalled  = func(msg string) { panic(msg) }
)

// Test runs f in a testing/synctest bubble, as synctest.Test does, and
// guards the scripted servers f makes from outside the bubble, where real
// time passes: a server that no attempt reaches within 5s of real time
// fails the test, naming the target the client should have dialed, and
// if the bubble has stalled meanwhile — a goroutine of it waits on real
// I/O, such as a client dialing a real address, so its clock can never
// move — Test ends the test binary with that goroutine, instead of
// hanging until go test's -timeout.
//
// A server made in a bubble that synctest.Test started has no such guard:
// nothing inside a bubble can measure real time, or run while it stalls.
// Outside a bubble every server guards itself.
func Test(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	g := guard.Start(guardClock, guardBudget)
	defer g.Stop()
	synctest.Test(t, func(t *testing.T) {
		unbind := guard.Bind(t, g)
		defer unbind()
		f(t)
	})
}

// arm watches for the server's first attempt: with the guard of the
// bubble's Test, or with a guard of the server's own outside a bubble.
func (s *Server) arm() {
	g := guard.For(s.t)
	if s.bubble == 0 {
		g = guard.Start(guardClock, guardBudget)
		s.guard = g
	}
	if g == nil {
		return
	}
	w := g.Watch(s.noAttempt)
	s.mu.Lock()
	if len(s.attempts) == 0 {
		s.watch = w
		w = nil
	}
	s.mu.Unlock()
	if w != nil {
		w.Done()
	}
}

// noAttempt fires, in the guard's goroutine, when the server's budget of
// real time has passed: unless an attempt came or the server closed
// meanwhile, it fails the test, and ends the binary if the bubble has
// stalled.
func (s *Server) noAttempt() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || len(s.attempts) > 0 {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "grpcscript: no attempt reached the scripted server within %s of real time: "+
		"the client must dial its target, %s, with its DialOptions (Server.Dial does both)\n",
		schedfmt.Duration(guardBudget), target)
	b.WriteString(s.scriptsLocked())
	stall := ""
	if s.bubble != 0 {
		stall = stalled(allStacks(), s.bubble, s.serveID.Load())
		b.WriteString(stall)
	}
	msg := strings.TrimSuffix(b.String(), "\n")
	s.t.Errorf("%s", msg)
	if strings.HasPrefix(stall, stalledHead) {
		endStalled(msg)
	}
}

const stalledHead = "the bubble has stalled"

// stalled reads a dump of every goroutine and lists those of bubble that
// wait on something that is not of the bubble — real I/O, a system call,
// a channel made outside it — so that its clock cannot move, or says why
// it cannot tell. It trusts the dump's "(durable)" marks only when the
// goroutine of the server's Serve, which waits in the listener's select,
// carries one.
func stalled(dump []byte, bubble, serveID int64) string {
	var waiting []string
	trusted := false
	for block := range bytes.SplitSeq(dump, []byte("\n\n")) {
		first, rest, _ := bytes.Cut(block, []byte("\n"))
		h, ok := goheader.Parse(first)
		if !ok || h.Bubble != bubble {
			continue
		}
		durable := bytes.Contains(first, []byte("(durable)"))
		state := string(h.State)
		if h.ID == serveID && state == "select" {
			trusted = durable
		}
		if durable || !nonDurableWait(state) {
			continue
		}
		waiting = append(waiting, fmt.Sprintf("    goroutine %d [%s] in %s", h.ID, state, topFrame(rest)))
	}
	switch {
	case len(waiting) == 0:
		return ""
	case !trusted:
		return "(the goroutine dump does not mark which of the bubble's goroutines are durably blocked, as Go 1.25 and later do: whether the bubble has stalled cannot be told)\n"
	}
	return stalledHead + ": these goroutines of it wait on something outside it (real I/O, a system call, a channel made outside the bubble), so its clock cannot move:\n" +
		strings.Join(waiting, "\n") + "\n" +
		"the test binary ends here, since nothing can end that wait: a client that dials a real address in a bubble stalls it\n"
}

// nonDurableWait reports whether a goroutine in state, not marked durable,
// waits on something outside its bubble for good: not a lock or a
// semaphore, which another goroutine of the bubble holds a moment, and not
// running.
func nonDurableWait(state string) bool {
	switch {
	case state == "running", state == "runnable":
		return false
	case strings.HasPrefix(state, "sync."), strings.HasPrefix(state, "semacquire"), strings.Contains(state, "Mutex"):
		return false
	}
	return true
}

// topFrame is the first function of a goroutine's stack outside the
// runtime, with its file:line: where it waits.
func topFrame(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	for i := 0; i+1 < len(lines); i += 2 {
		fn := strings.TrimSpace(lines[i])
		if strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "internal/") || strings.HasPrefix(fn, "created by ") {
			continue
		}
		if j := strings.LastIndex(fn, "("); j > 0 {
			fn = fn[:j]
		}
		loc := strings.TrimSpace(lines[i+1])
		if j := strings.Index(loc, " +0x"); j >= 0 {
			loc = loc[:j]
		}
		if j := strings.LastIndex(loc, "/"); j >= 0 {
			loc = loc[j+1:]
		}
		return fn + " (" + loc + ")"
	}
	return "?"
}

// allStacks is the text of every goroutine's stack.
func allStacks() []byte {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}
