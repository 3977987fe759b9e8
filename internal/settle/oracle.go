package settle

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/retrykit/retrykit/internal/goheader"
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
	samples []metrics.Sample
	// spare holds the buffers of the last settle, for the next one.
	spare atomic.Pointer[scratch]
	seed  maphash.Seed
	// lastCost and lastCount are what the last look of a settle cost, in
	// real time, and how many goroutines it saw.
	lastCost  atomic.Int64
	lastCount atomic.Int64
	// Trace, when set, receives the oracle's decisions.
	Trace func(format string, args ...any)
}

// NewOracle returns an oracle for the test of the calling goroutine. It
// takes a snapshot, so that the caller's test is known even if the caller
// exits before the first settle.
func NewOracle() *Oracle {
	o := &Oracle{
		tests:   make(map[int64]bool),
		samples: quietSamples(),
		seed:    maphash.MakeSeed(),
	}
	s := new(scratch)
	process.look(s)
	if len(s.origins) > 0 {
		process.chain(s.origins[0], o.tests)
	}
	o.existed = make(map[int64]bool, len(s.gs))
	for _, g := range s.gs {
		o.existed[g.ID] = true
	}
	o.spare.Store(s)
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

// LastLook returns what the last look of a settle cost in real time, and
// how many goroutines of the process it saw (0, 0 before any).
func (o *Oracle) LastLook() (cost time.Duration, goroutines int) {
	return time.Duration(o.lastCost.Load()), int(o.lastCount.Load())
}

// Existed reports whether goroutine id was alive when the oracle was made.
func (o *Oracle) Existed(id int64) bool { return o.existed[id] }

// snapshot is what one look at the goroutines found.
type snapshot struct {
	idle bool
	io   bool   // an in-scope goroutine waits to read from a descriptor
	err  error  // an *Untrusted: the dump cannot be read as expected
	sig  uint64 // identity of the in-scope goroutines and their stacks, when io
	busy []Goroutine
	why  []string // why each busy goroutine may not be the test's fault
}

func (o *Oracle) snapshot(s *scratch) snapshot {
	v := o.look(s)
	if s.unreadable != nil {
		return snapshot{err: untrusted("a goroutine's header does not read as \"goroutine N [state]:\"", string(s.unreadable))}
	}
	res := snapshot{idle: true}
	for i, g := range v.Goroutines {
		if !v.In[i] {
			continue
		}
		switch g.Class() {
		case Unrecognized:
			return snapshot{err: untrusted(fmt.Sprintf("goroutine %d is in the state %q, which is neither among the states this package knows to be idle nor among those it knows to be busy", g.ID, g.State), string(g.Text))}
		case IOWait:
			res.io = true
		case Busy:
			res.idle = false
			// The goroutines alias the view's buffer, which the next
			// look overwrites: keep copies for the report.
			g.Text = bytes.Clone(g.Text)
			res.busy = append(res.busy, g)
			res.why = append(res.why, v.Note(i))
			if at, ok := sleepsAt(g); ok {
				o.mu.Lock()
				if !slices.Contains(o.slept, at) {
					o.slept = append(o.slept, at)
				}
				o.mu.Unlock()
			}
		}
	}
	if res.io {
		// Only a network wait needs two identical snapshots.
		var h maphash.Hash
		h.SetSeed(o.seed)
		for i, g := range v.Goroutines {
			if !v.In[i] {
				continue
			}
			var id [8]byte
			binary.LittleEndian.PutUint64(id[:], uint64(g.ID))
			h.Write(id[:])
			h.WriteString(g.State)
			if i := bytes.IndexByte(g.Text, '\n'); i >= 0 {
				h.Write(g.Text[i:]) // the stack, without the header's waiting time
			}
		}
		res.sig = h.Sum64()
	}
	if o.Trace != nil {
		var b strings.Builder
		for i, g := range v.Goroutines {
			fmt.Fprintf(&b, "  %d [%s] parent=%d test=%d lifelong=%v in=%v\n", g.ID, g.State, g.Parent, v.Origins[i].Test, v.Origins[i].Lifelong, v.In[i])
		}
		o.Trace("look: idle=%v io=%v sig=%x\n%s", res.idle, res.io, res.sig, b.String())
	}
	return res
}

// ErrInBubble is the error of a settle called from inside a synctest
// bubble.
var ErrInBubble = errors.New("settle: the oracle settles goroutines outside synctest bubbles and was called from inside one")

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
	// Looks is maxLooks when the settle ended because it took that many
	// looks, and 0 when its time ran out.
	Looks int
}

// stillLooks is how many looks in a row with time standing still across
// each tell the oracle it runs inside a synctest bubble after all. A look
// takes microseconds of real time at the least, and the monotonic clock
// reads nanoseconds; three guard against a coarse clock.
const stillLooks = 3

// maxLooks bounds the looks of one settle whatever the clocks say: at the
// least cost of a look (a few microseconds) it is seconds of real time.
const maxLooks = 1 << 20

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
	if e.Looks > 0 {
		fmt.Fprintf(&b, "\n(the settle stopped after %d looks, its bound whatever the clocks say)", e.Looks)
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
//
// Before its first look in the process, Settle runs the self-check
// ([SelfCheck]); a dump that does not read as expected — there, or at any
// look: a header it cannot read, a goroutine in scope in a state it does
// not know — makes it return an [*Untrusted] at once.
//
// A caller inside a synctest bubble gets [ErrInBubble] at once: time there
// is the bubble's, and a real-time budget would never end while the oracle
// polls. Should [goheader.InBubble] ever misjudge, two bounds that hold inside a
// bubble end the polling all the same: time that stands still across
// three looks in a row (a look stops the world and formats every
// stack, which takes real time, and the bubble's clock does not move while
// the caller runs) returns ErrInBubble, and no settle takes more than
// maxLooks looks.
func (o *Oracle) Settle(ctx context.Context, until time.Time) error {
	if goheader.InBubble() {
		return ErrInBubble
	}
	if err := SelfCheck(); err != nil {
		return err
	}
	s := o.spare.Swap(nil)
	if s == nil {
		s = new(scratch) // another settle runs with the spare buffers
	}
	defer o.spare.Store(s)
	started := time.Now()
	var (
		last      snapshot
		ioWhy     string
		expectIO  bool // the last snapshot had a network wait in scope
		confirmed bool // the previous snapshot was idle and bracketed
		prevSig   uint64
		prevSock  uint64
		lookCost  time.Duration // what the last look took
		looks     int
		still     int // looks in a row across which time.Now did not move
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
			last = o.snapshot(s)
			if last.err != nil {
				return last.err
			}
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
		// Wait for a moment when nothing else seems to run, as long as
		// a look takes at most: a look while the woken code still runs
		// is wasted.
		wait := time.Now().Add(max(lookCost, minQuietWait))
		if wait.After(until) {
			wait = until
		}
		o.awaitQuiet(wait)
		var before uint64
		beforeQuiet := false
		if expectIO {
			beforeQuiet, ioWhy, before = socketsQuiet()
		}
		t0 := time.Now()
		last = o.snapshot(s)
		t1 := time.Now()
		lookCost = t1.Sub(t0)
		o.lastCost.Store(int64(lookCost))
		o.lastCount.Store(int64(len(s.gs)))
		if last.err != nil {
			return last.err
		}
		if looks++; looks >= maxLooks {
			return &Unsettled{Elapsed: time.Since(started), Busy: last.busy, Why: last.why, Looks: looks}
		}
		if !t1.After(t0) {
			if still++; still >= stillLooks {
				return ErrInBubble
			}
		} else {
			still = 0
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
