package settle

import (
	"bytes"
	"slices"
	"strings"
	"sync"
)

// Origin says which test started a goroutine, as far as the goroutine
// dumps tell.
type Origin struct {
	// Test is the goroutine running the test whose code started this
	// goroutine, directly or not (the goroutine itself when it runs a
	// test); NoTest when its ancestry reaches no test (it was started by
	// init, TestMain or an Example, which run on the main goroutine); or
	// Unknown when a goroutine on the way exited before any snapshot saw
	// it.
	Test int64
	// Lifelong reports a goroutine that the runtime or the standard
	// library keeps for the life of the process and that never runs the
	// code under test: the signal loop that signal.Notify starts, the
	// writer of a CPU profile, the reader of an execution trace.
	Lifelong bool

	// up is, for a goroutine running a test, the test that started it.
	up int64
}

const (
	// NoTest is the Origin.Test of a goroutine whose ancestry reaches the
	// main goroutine without passing through a test.
	NoTest int64 = 0
	// Unknown is the Origin.Test of a goroutine whose ancestry is lost.
	Unknown int64 = -1
)

// ancestry remembers the origin of every goroutine alive at the last
// snapshot, so that a goroutine whose parent has exited since is still
// traced to its test. Goroutine numbers are never reused, so what it
// remembers stays true. One ancestry serves the whole process: every
// snapshot, whichever clock takes it, teaches it the goroutines it saw.
//
// An origin is worked out once, when a snapshot first shows the goroutine;
// a snapshot that shows the same goroutines as the one before, the usual
// case while a clock is drained, costs one comparison per goroutine.
type ancestry struct {
	mu      sync.Mutex
	origins map[int64]Origin
	// names holds the name of the test function of each test goroutine
	// that a remembered origin refers to.
	names map[int64]string
	// ids and last are the goroutines of the last snapshot and their
	// origins, in the dump's order.
	ids  []int64
	last []Origin
}

var process = &ancestry{origins: make(map[int64]Origin), names: make(map[int64]string)}

// scratch holds the buffers of one oracle's looks, reused from look to
// look: a look's goroutines, origins and scope alias them until the next.
type scratch struct {
	buf     []byte
	gs      []Goroutine
	origins []Origin
	in      []bool
	alive   map[int64]int // the goroutines that run a test, by number
	// unreadable is the first line of the first block of the last dump
	// that the parser could not read, or nil.
	unreadable []byte
}

// look takes a snapshot of every goroutine into s and works out the origin
// of each.
func (a *ancestry) look(s *scratch) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var dump []byte
	s.buf, dump = Snapshot(s.buf)
	s.unreadable = nil
	s.gs = parseInto(s.gs[:0], dump, &s.unreadable)
	gs := s.gs
	s.origins = slices.Grow(s.origins[:0], len(gs))[:len(gs)]
	if len(gs) == len(a.ids) && slices.EqualFunc(gs, a.ids, func(g Goroutine, id int64) bool { return g.ID == id }) {
		copy(s.origins, a.last)
	} else {
		a.resolve(gs, s.origins)
		a.ids = a.ids[:0]
		for _, g := range gs {
			a.ids = append(a.ids, g.ID)
		}
		a.last = append(a.last[:0], s.origins...)
	}
	if s.alive == nil {
		s.alive = make(map[int64]int)
	}
	clear(s.alive)
	for i, g := range gs {
		if s.origins[i].Test == g.ID {
			s.alive[g.ID] = i
		}
	}
}

// resolve works out the origins of gs, a snapshot that differs from the
// last one, and forgets the goroutines that have exited.
func (a *ancestry) resolve(gs []Goroutine, origins []Origin) {
	// fresh indexes the goroutines no snapshot showed before.
	var fresh map[int64]int
	resolved := make([]bool, len(gs))
	for i, g := range gs {
		if o, ok := a.origins[g.ID]; ok {
			origins[i], resolved[i] = o, true
			continue
		}
		if fresh == nil {
			fresh = make(map[int64]int)
		}
		fresh[g.ID] = i
	}
	var work func(i, depth int) Origin
	work = func(i, depth int) Origin {
		if resolved[i] {
			return origins[i]
		}
		g := gs[i]
		o := Origin{Lifelong: lifelong(g)}
		parent := NoTest
		if g.Parent != 0 {
			if po, ok := a.origins[g.Parent]; ok {
				// Alive and seen before, or exited since the last
				// snapshot, which saw it.
				parent = po.Test
			} else if p, ok := fresh[g.Parent]; ok && depth < len(gs) {
				parent = work(p, depth+1).Test
			} else {
				parent = Unknown
			}
		}
		if name, ok := runsTest(g); ok {
			o.Test, o.up = g.ID, parent
			a.names[g.ID] = name
		} else {
			o.Test = parent
		}
		origins[i], resolved[i] = o, true
		return o
	}
	for i := range gs {
		work(i, 0)
	}
	// Forget the goroutines that have exited: a goroutine seen from now on
	// was started by one alive now, or by one that nobody saw.
	clear(a.origins)
	referred := make(map[int64]bool)
	for i, g := range gs {
		a.origins[g.ID] = origins[i]
		referred[origins[i].Test] = true
		referred[origins[i].up] = true
	}
	for id := range a.names {
		if !referred[id] {
			delete(a.names, id)
		}
	}
}

// chain returns the tests of a goroutine whose origin is o: its test, that
// test's parent test, and so on, as far as they are known.
func (a *ancestry) chain(o Origin, tests map[int64]bool) {
	for id, depth := o.Test, 0; id > 0 && !tests[id] && depth < 1000; depth++ {
		tests[id] = true
		a.mu.Lock()
		up, ok := a.origins[id]
		a.mu.Unlock()
		if !ok {
			return
		}
		id = up.up
	}
}

// name returns the test function of the test goroutine id, or "".
func (a *ancestry) name(id int64) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.names[id]
}

// testFrames are the functions of package testing that run a test's (or a
// benchmark's) function on the goroutine they run on.
var testFrames = []string{"testing.tRunner", "testing.(*B).runN"}

// runsTest reports whether g runs a test or benchmark function, and that
// function's name (the frame just above the testing package's). The main
// goroutine, which runs the testing package's own function that starts the
// top-level tests, runs no test.
func runsTest(g Goroutine) (string, bool) {
	if !bytes.Contains(g.Text, []byte("\ntesting.")) {
		return "", false
	}
	frames := g.Frames()
	for i, f := range frames {
		for _, tf := range testFrames {
			if f.Function == tf && i > 0 && !strings.HasPrefix(frames[i-1].Function, "testing.") {
				return shortName(frames[i-1].Function), true
			}
		}
	}
	return "", false
}

// shortName drops the import path from a function name:
// "example.com/pkg_test.TestX.func1" → "pkg_test.TestX.func1".
func shortName(fn string) string {
	if i := strings.LastIndexByte(fn, '/'); i >= 0 {
		return fn[i+1:]
	}
	return fn
}

// lifelongCreators are the packages whose goroutines live as long as the
// process and never run the code under test.
var lifelongCreators = [][]byte{
	[]byte("os/signal."),     // signal.Notify's loop, in a system call
	[]byte("runtime/pprof."), // a CPU profile's writer
	[]byte("runtime/trace."), // an execution trace's reader
	[]byte("runtime."),       // the runtime's own helpers (ensureSigM)
}

func lifelong(g Goroutine) bool {
	by := g.CreatedBy()
	for _, p := range lifelongCreators {
		if bytes.HasPrefix(by, p) {
			return true
		}
	}
	return g.HasFrame("os/signal.signal_recv")
}
