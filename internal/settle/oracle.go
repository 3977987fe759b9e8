package settle

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Oracle decides, from snapshots of every goroutine's state, when the
// goroutines of one test have settled. See the package documentation for
// the definition it implements.
type Oracle struct {
	// tests are the tests of the goroutine that made the oracle: its own
	// and every ancestor test. Their goroutines are in scope.
	tests map[int64]bool
	// existed holds the goroutines alive when the oracle was made.
	existed map[int64]bool
	// slept holds where goroutines in scope slept in time.Sleep while a
	// settle waited for them, in the order first seen.
	mu      sync.Mutex
	slept   []string
	buf     []byte
	samples []metrics.Sample
	// Trace, when set, receives the oracle's decisions.
	Trace func(format string, args ...any)
}

// NewOracle returns an oracle for the test of the calling goroutine. It
// takes a snapshot, so that the caller's test is known even if the caller
// exits before the first settle.
func NewOracle() *Oracle {
	o := &Oracle{
		tests: make(map[int64]bool),
		samples: []metrics.Sample{
			{Name: "/sched/goroutines/runnable:goroutines"},
			{Name: "/sched/goroutines/running:goroutines"},
		},
	}
	var (
		gs      []Goroutine
		origins []Origin
	)
	o.buf, gs, origins, _ = process.look(nil)
	process.chain(origins[0], o.tests)
	o.existed = make(map[int64]bool, len(gs))
	for _, g := range gs {
		o.existed[g.ID] = true
	}
	return o
}

// Slept returns where goroutines in scope slept in time.Sleep while a
// settle waited for them ("client.go:42, in pkg.retry"), each once: a
// settle waits such a sleep out in real time.
func (o *Oracle) Slept() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.slept)
}

// Existed reports whether goroutine id was alive when the oracle was made.
func (o *Oracle) Existed(id int64) bool { return o.existed[id] }

// snapshot is what one look at the goroutines found.
type snapshot struct {
	idle bool
	io   bool   // an in-scope goroutine waits to read from a descriptor
	sig  uint64 // identity of the in-scope goroutines and their stacks
	busy []Goroutine
	why  []string // why each busy goroutine may not be the test's fault
}

func (o *Oracle) snapshot() snapshot {
	var v View
	v, o.buf = o.look(o.buf)
	s := snapshot{idle: true}
	h := fnv.New64a()
	for i, g := range v.Goroutines {
		if !v.In[i] {
			continue
		}
		switch g.Class() {
		case IOWait:
			s.io = true
		case Busy:
			s.idle = false
			s.busy = append(s.busy, g)
			s.why = append(s.why, v.Note(i))
			if at, ok := sleepsAt(g); ok {
				o.mu.Lock()
				if !slices.Contains(o.slept, at) {
					o.slept = append(o.slept, at)
				}
				o.mu.Unlock()
			}
		}
		h.Write(strconv.AppendInt(nil, g.ID, 10))
		h.Write([]byte(g.State))
		if i := bytes.IndexByte(g.Text, '\n'); i >= 0 {
			h.Write(g.Text[i:]) // the stack, without the header's waiting time
		}
	}
	s.sig = h.Sum64()
	if !s.idle {
		// The goroutines alias the view's buffer, which the next look
		// overwrites: keep copies for the report.
		for i := range s.busy {
			s.busy[i].Text = bytes.Clone(s.busy[i].Text)
		}
	}
	if o.Trace != nil {
		var b strings.Builder
		for i, g := range v.Goroutines {
			fmt.Fprintf(&b, "  %d [%s] parent=%d test=%d lifelong=%v in=%v\n", g.ID, g.State, g.Parent, v.Origins[i].Test, v.Origins[i].Lifelong, v.In[i])
		}
		o.Trace("look: idle=%v io=%v sig=%x\n%s", s.idle, s.io, s.sig, b.String())
	}
	return s
}

// othersRunning reads the scheduler's counters (about a microsecond) and
// reports whether any goroutine other than the caller runs or waits to run.
func (o *Oracle) othersRunning() bool {
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

// Unsettled is the error of a settle that gave up.
type Unsettled struct {
	// Elapsed is the real time the settle took.
	Elapsed time.Duration
	// Cause is ctx's error when ctx ended, or nil when the budget ran out.
	Cause error
	// Busy are the goroutines in scope that were busy at the last look,
	// and Why what their stacks prove about each ("" when nothing).
	Busy []Goroutine
	Why  []string
	// Network says why the network was not quiet while goroutines in scope
	// waited on it ("" when that was not the trouble).
	Network string
}

// Error describes the goroutines that kept the settle from finishing.
func (e *Unsettled) Error() string {
	var b strings.Builder
	switch {
	case len(e.Busy) > 0:
		fmt.Fprintf(&b, "%d goroutine(s) still running, or waiting on something other than the clock and in-process synchronization:", len(e.Busy))
		for i, g := range e.Busy {
			b.WriteString("\n\n")
			if e.Why[i] != "" {
				fmt.Fprintf(&b, "goroutine %d: %s\n", g.ID, e.Why[i])
			}
			b.WriteString(strings.TrimRight(string(g.Text), "\n"))
		}
		b.WriteString("\n")
	case e.Network != "":
		b.WriteString("goroutines wait on the network, which is not quiet: " + e.Network)
	default:
		b.WriteString("nothing in scope was busy at the last look")
	}
	return b.String()
}

// Settle polls, yielding with runtime.Gosched and never sleeping, until a
// snapshot shows every goroutine in scope idle, or until ctx ends or the
// real time until passes (then it returns an *Unsettled).
//
// When a goroutine in scope waits on the network, one snapshot is not
// enough: data may arrive, or be consumed, between the snapshot and a look
// at the sockets. Then each snapshot is bracketed by two looks at the
// sockets, and it takes two consecutive idle snapshots with identical
// stacks, with every look quiet and showing the same descriptors and byte
// counters (so no data moved meanwhile).
func (o *Oracle) Settle(ctx context.Context, until time.Time) error {
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
		ended := false
		select {
		case <-ctx.Done():
			cause, ended = ctx.Err(), true
		default:
			ended = time.Now().After(until)
		}
		if ended {
			// A last look, so that the error names what is busy even
			// when the budget ran out before any snapshot (a loaded
			// machine can take it all in one yield).
			last = o.snapshot()
			if last.idle && !last.io {
				return nil
			}
			e := &Unsettled{Elapsed: time.Since(started), Cause: cause, Busy: last.busy, Why: last.why}
			if last.idle {
				e.Network = ioWhy
				if e.Network == "" {
					_, e.Network, _ = socketsQuiet()
				}
			}
			return e
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
		last = o.snapshot()
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
		if o.Trace != nil {
			o.Trace("sockets: before=%v/%x after=%v/%x why=%q confirmed=%v", beforeQuiet, before, afterQuiet, after, ioWhy, confirmed)
		}
		if !beforeQuiet || !afterQuiet || after != before {
			confirmed = false
			runtime.Gosched()
			continue
		}
		if confirmed && last.sig == prevSig && after == prevSock {
			return nil
		}
		confirmed, prevSig, prevSock = true, last.sig, after
		runtime.Gosched()
	}
}
