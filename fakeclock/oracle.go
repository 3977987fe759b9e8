package fakeclock

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/internal/stackscan"
)

// oracle decides, from snapshots of every goroutine's state, when the
// goroutines of one test have settled. See the package documentation for
// the definition it implements.
type oracle struct {
	c    *Clock
	root int64
	// baseline holds the goroutines alive when the clock was made.
	baseline map[int64]struct{}
	// member remembers, for every goroutine ever seen, whether it belongs
	// to the test's family: the goroutine that made the clock, the clock's
	// AfterFunc goroutines, and everything they started, directly or not.
	member  map[int64]bool
	buf     []byte
	samples []metrics.Sample
}

func newOracle(c *Clock, root int64) *oracle {
	o := &oracle{
		c:        c,
		root:     root,
		baseline: make(map[int64]struct{}),
		member:   make(map[int64]bool),
		samples: []metrics.Sample{
			{Name: "/sched/goroutines/runnable:goroutines"},
			{Name: "/sched/goroutines/running:goroutines"},
		},
	}
	buf, dump := stackscan.Snapshot(nil)
	gs := stackscan.Parse(dump)
	if root != 0 {
		for _, g := range gs {
			o.baseline[g.ID] = struct{}{}
		}
	}
	o.scope(gs)
	o.buf = buf
	return o
}

// scope marks, for each goroutine of a snapshot, whether it is in the
// test's family.
func (o *oracle) scope(gs []stackscan.Goroutine) []bool {
	index := make(map[int64]int, len(gs))
	for i, g := range gs {
		index[g.ID] = i
	}
	in := make([]bool, len(gs))
	var visit func(i, depth int) bool
	visit = func(i, depth int) bool {
		g := gs[i]
		if v, ok := o.member[g.ID]; ok {
			return v
		}
		v := false
		switch {
		case g.ID == o.root:
			v = true
		case g.Parent == 0 || depth > len(gs):
		default:
			if pv, ok := o.member[g.Parent]; ok {
				v = pv
			} else if j, ok := index[g.Parent]; ok {
				v = visit(j, depth+1)
			} else {
				// The parent exited before any snapshot saw it, so
				// nothing tells whose it was: count the goroutine in,
				// conservatively (a settle that waits too long fails
				// naming it; one that ends too early goes unnoticed).
				v = true
			}
		}
		o.member[g.ID] = v
		return v
	}
	for i := range gs {
		in[i] = visit(i, 0)
	}
	return in
}

// snapshot is what one look at the goroutines found.
type snapshot struct {
	idle bool
	io   bool   // an in-scope goroutine waits to read from a descriptor
	sig  uint64 // identity of the in-scope goroutines and their stacks
	busy []stackscan.Goroutine
	// scope lists every goroutine, for tracing.
	scope string
}

func (o *oracle) look() snapshot {
	buf, dump := stackscan.Snapshot(o.buf)
	o.buf = buf
	gs := stackscan.Parse(dump)
	in := o.scope(gs)
	s := snapshot{idle: true}
	for i, g := range gs {
		if i == 0 || !in[i] { // gs[0] is the goroutine taking the snapshot
			continue
		}
		if g.Class() == stackscan.IOWait {
			s.io = true
			break
		}
	}
	if s.io {
		// A request may be served by goroutines the test did not start
		// (a server started elsewhere): while the family waits on the
		// network, everything started since the clock was made counts.
		for i, g := range gs {
			if _, old := o.baseline[g.ID]; !old && o.root != 0 {
				in[i] = true
			}
		}
	}
	h := fnv.New64a()
	for i, g := range gs {
		if i == 0 || !in[i] {
			continue
		}
		h.Write(strconv.AppendInt(nil, g.ID, 10))
		h.Write([]byte(g.State))
		if i := bytes.IndexByte(g.Text, '\n'); i >= 0 {
			h.Write(g.Text[i:]) // the stack, without the header's waiting time
		}
		if g.Class() == stackscan.Busy {
			s.idle = false
			s.busy = append(s.busy, g)
		}
	}
	s.sig = h.Sum64()
	if o.c.trace != nil {
		var b strings.Builder
		for i, g := range gs {
			fmt.Fprintf(&b, "  %d [%s] parent=%d in=%v member=%v\n", g.ID, g.State, g.Parent, in[i], o.member[g.ID])
		}
		s.scope = b.String()
	}
	return s
}

// othersRunning reads the scheduler's counters (about a microsecond) and
// reports whether any goroutine other than the caller runs or waits to run.
func (o *oracle) othersRunning() bool {
	metrics.Read(o.samples)
	var runnable, running uint64
	if o.samples[0].Value.Kind() == metrics.KindUint64 {
		runnable = o.samples[0].Value.Uint64()
	}
	if o.samples[1].Value.Kind() == metrics.KindUint64 {
		running = o.samples[1].Value.Uint64()
	}
	return runnable > 0 || running > 1
}

// maxSpins bounds how many times the oracle yields on the scheduler's word
// alone before it looks at the goroutines anyway (other tests may keep the
// scheduler busy forever).
const maxSpins = 16

// slowYield is how long a runtime.Gosched may take before the oracle stops
// trusting the scheduler's counters and looks at the goroutines instead.
const slowYield = 200 * time.Microsecond

// settle polls, yielding with runtime.Gosched and never sleeping, until a
// snapshot shows every in-scope goroutine idle, or until ctx or the budget
// ends.
//
// When a goroutine in scope waits on the network, one snapshot is not
// enough: data may arrive, or be consumed, between the snapshot and a look
// at the sockets. Then each snapshot is bracketed by two looks at the
// sockets, and it takes two consecutive idle snapshots with identical
// stacks, with every look quiet and showing the same descriptors and byte
// counters (so no data moved meanwhile).
func (o *oracle) settle(ctx context.Context, op string) error {
	if _, bubble := stackscan.Current(); bubble {
		// Time inside a bubble is fake: a real-time budget could never
		// end while the oracle polls.
		return fmt.Errorf("fakeclock: %s: the clock was made outside a synctest bubble and is advanced from inside one; make it inside the bubble", op)
	}
	b := o.c.settle.budget(ctx)
	defer b.stop()
	started := time.Now()
	var (
		last      snapshot
		ioWhy     string
		expectIO  bool // the last snapshot had a network wait in scope
		confirmed bool // the previous snapshot was idle and bracketed
		prevSig   uint64
		prevSock  uint64
		spins     int
	)
	for {
		var cause error
		select {
		case <-ctx.Done():
			cause = ctx.Err()
		default:
			if time.Now().After(b.until) {
				cause = ErrNotSettled
				if b.t == nil { // the budget is ctx's deadline
					cause = context.DeadlineExceeded
				}
			}
		}
		if cause != nil {
			// A last look, so that the error names what is busy even
			// when the budget ran out before any snapshot (a loaded
			// machine can take it all in one yield).
			last = o.look()
			if last.idle && !last.io {
				return nil
			}
			return o.fail(op, cause, started, last, ioWhy)
		}
		o.c.mu.Lock()
		starting := o.c.cbStarting
		for _, id := range o.c.cbIDs {
			o.member[id] = true
		}
		o.c.cbIDs = o.c.cbIDs[:0]
		o.c.mu.Unlock()
		if starting > 0 {
			runtime.Gosched()
			continue
		}
		if spins < maxSpins && o.othersRunning() {
			// Yield instead of stopping the world while something
			// runs. When a yield is slow (other goroutines keep the
			// processors busy), a snapshot is the cheaper move.
			spins++
			t0 := time.Now()
			runtime.Gosched()
			if time.Since(t0) > slowYield {
				spins = maxSpins
			}
			continue
		}
		spins = 0
		var before uint64
		beforeQuiet := false
		if expectIO {
			beforeQuiet, ioWhy, before = socketsQuiet()
		}
		last = o.look()
		if o.c.trace != nil {
			o.c.trace("look: idle=%v io=%v sig=%x before=%v/%x why=%q\n%s", last.idle, last.io, last.sig, beforeQuiet, before, ioWhy, last.scope)
		}
		expectIO = last.io
		if !last.idle {
			confirmed = false
			runtime.Gosched()
			continue
		}
		if !last.io {
			return nil
		}
		after := uint64(0)
		afterQuiet := false
		if beforeQuiet {
			afterQuiet, ioWhy, after = socketsQuiet()
		}
		if !beforeQuiet || !afterQuiet || after != before {
			confirmed = false
			runtime.Gosched()
			continue
		}
		if o.c.trace != nil {
			o.c.trace("after: quiet=%v sig=%x why=%q confirmed=%v", afterQuiet, after, ioWhy, confirmed)
		}
		if confirmed && last.sig == prevSig && after == prevSock {
			return nil
		}
		confirmed, prevSig, prevSock = true, last.sig, after
		runtime.Gosched()
	}
}

func (o *oracle) fail(op string, cause error, started time.Time, last snapshot, ioWhy string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "fakeclock: %s: the code under test did not settle within %s of real time (at %s on the clock)", op,
		schedfmt.Duration(time.Since(started).Round(time.Millisecond)), offset(o.c.Now().Sub(o.c.start)))
	if cause != ErrNotSettled {
		b.WriteString(": " + cause.Error())
	}
	switch {
	case len(last.busy) > 0:
		fmt.Fprintf(&b, "\n%d goroutine(s) of the test still running, or waiting on something other than the clock and in-process synchronization:", len(last.busy))
		for _, g := range last.busy {
			b.WriteString("\n\n")
			b.WriteString(strings.TrimRight(string(g.Text), "\n"))
		}
		b.WriteString("\n")
	case ioWhy != "":
		b.WriteString("\ngoroutines of the test wait on the network, which is not quiet: " + ioWhy)
	}
	o.c.mu.Lock()
	pending := o.c.pendingLocked()
	o.c.mu.Unlock()
	writePending(&b, pending)
	causes := []error{ErrNotSettled}
	if cause != ErrNotSettled {
		causes = append(causes, cause)
	}
	return &report{msg: b.String(), causes: causes}
}
