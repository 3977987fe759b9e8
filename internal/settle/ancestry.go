package settle

import (
	"bytes"
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
type ancestry struct {
	mu      sync.Mutex
	origins map[int64]Origin
	// names holds the name of the test function of each test goroutine
	// that a remembered origin refers to.
	names map[int64]string
}

var process = &ancestry{origins: make(map[int64]Origin), names: make(map[int64]string)}

// look takes a snapshot of every goroutine into buf (growing it as needed)
// and returns it with the origin of each and the index of each goroutine
// number. The goroutines alias the returned buffer.
func (a *ancestry) look(buf []byte) (grown []byte, gs []Goroutine, origins []Origin, index map[int64]int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var dump []byte
	grown, dump = Snapshot(buf)
	gs = Parse(dump)
	index = make(map[int64]int, len(gs))
	for i, g := range gs {
		index[g.ID] = i
	}
	origins = make([]Origin, len(gs))
	resolved := make([]bool, len(gs))
	var resolve func(i, depth int) Origin
	resolve = func(i, depth int) Origin {
		if resolved[i] {
			return origins[i]
		}
		g := gs[i]
		o, known := a.origins[g.ID]
		if !known {
			o = Origin{Lifelong: lifelong(g)}
			parent := NoTest
			switch p, alive := index[g.Parent]; {
			case g.Parent == 0:
			case alive && depth < len(gs):
				parent = resolve(p, depth+1).Test
			default:
				if po, ok := a.origins[g.Parent]; ok {
					parent = po.Test
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
		}
		origins[i], resolved[i] = o, true
		return o
	}
	for i := range gs {
		resolve(i, 0)
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
	return grown, gs, origins, index
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
