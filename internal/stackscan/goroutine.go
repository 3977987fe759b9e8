package stackscan

import (
	"bytes"
	"runtime"
	"strconv"
)

// Goroutine is one goroutine of a dump.
type Goroutine struct {
	// ID is the goroutine's number ("goroutine 7").
	ID int64
	// State is the wait reason or status in the header ("chan receive",
	// "running"), without the "(durable)", "(scan)" and "(leaked)" suffixes
	// and without the waiting time, thread lock, bubble and labels.
	State string
	// Parent is the number of the goroutine whose go statement created this
	// one, or 0 when the dump does not say (the main goroutine).
	Parent int64
	// Bubble reports whether the goroutine belongs to a synctest bubble.
	Bubble bool
	// Text is the goroutine's whole block in the dump, header included. It
	// aliases the buffer given to Parse.
	Text []byte

	// readWait reports an "IO wait" for a file descriptor to become
	// readable (a read or an accept).
	readWait bool
	// userSema reports a "semacquire" wait that the sync or internal/poll
	// package asked for. The runtime's own semaphores (the garbage
	// collector's, the world-stopping one) park goroutines in the same
	// state, but those waits end by themselves.
	userSema bool
}

// Class sorts goroutine states for a settle oracle.
type Class int

const (
	// Busy means the goroutine runs, can run, or waits for something that
	// ends by itself (a real sleep, a system call, a write): the code under
	// test has not settled.
	Busy Class = iota
	// Idle means the goroutine waits on in-process synchronization (a
	// channel, select, mutex, condition variable, wait group): only another
	// goroutine can wake it.
	Idle
	// IOWait means the goroutine waits to read from, or accept on, a file
	// descriptor: it is idle only while no data is on its way.
	IOWait
)

// String returns "busy", "idle" or "IO wait".
func (c Class) String() string {
	switch c {
	case Idle:
		return "idle"
	case IOWait:
		return "IO wait"
	default:
		return "busy"
	}
}

// idleStates are the wait reasons that only another goroutine of the
// process can end.
var idleStates = map[string]bool{
	"chan receive":            true,
	"chan send":               true,
	"chan receive (nil chan)": true,
	"chan send (nil chan)":    true,
	"select":                  true,
	"select (no cases)":       true,
	"sync.Cond.Wait":          true,
	"sync.Mutex.Lock":         true,
	"sync.RWMutex.RLock":      true,
	"sync.RWMutex.Lock":       true,
	"sync.WaitGroup.Wait":     true,
}

// Class returns the goroutine's class. Unknown states are busy, and so are
// an IO wait that is not a read or an accept (a write or a connect finishes
// by itself) and a "semacquire" wait on one of the runtime's own semaphores
// (a goroutine that starts a garbage collection, or stops the world, while
// another goroutine holds the semaphore).
func (g Goroutine) Class() Class {
	if idleStates[g.State] || g.State == "semacquire" && g.userSema {
		return Idle
	}
	if g.State == "IO wait" && g.readWait {
		return IOWait
	}
	return Busy
}

// Snapshot writes the stacks of all goroutines into buf, growing it as
// needed, and returns the buffer (for reuse) and the dump within it. It stops
// the world for the duration of the dump.
func Snapshot(buf []byte) (grown, dump []byte) {
	if len(buf) < 64<<10 {
		buf = make([]byte, 64<<10)
	}
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return buf, buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}

// Current returns the calling goroutine's number and whether it runs inside
// a synctest bubble, read from the header of its own stack.
func Current() (id int64, bubble bool) {
	var buf [256]byte
	n := runtime.Stack(buf[:], false)
	line := buf[:n]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	g, ok := parseHeader(line)
	if !ok {
		return 0, false
	}
	return g.ID, g.Bubble
}

// Parse splits a dump into goroutines. Blocks it cannot read are skipped.
// The returned goroutines alias dump.
func Parse(dump []byte) []Goroutine {
	var out []Goroutine
	for len(dump) > 0 {
		var block []byte
		if i := bytes.Index(dump, []byte("\n\n")); i >= 0 {
			block, dump = dump[:i+1], dump[i+2:]
		} else {
			block, dump = dump, nil
		}
		if g, ok := parseBlock(block); ok {
			out = append(out, g)
		}
	}
	return out
}

var (
	createdBy      = []byte("\ncreated by ")
	inGoroutine    = []byte(" in goroutine ")
	waitRead       = []byte("internal/poll.(*pollDesc).waitRead")
	userSemacquire = []byte(".runtime_Semacquire")
)

func parseBlock(block []byte) (Goroutine, bool) {
	header := block
	if before, _, ok := bytes.Cut(block, []byte{'\n'}); ok {
		header = before
	}
	g, ok := parseHeader(header)
	if !ok {
		return g, false
	}
	g.Text = block
	if _, after, found := bytes.Cut(block, createdBy); found {
		line := after
		if j := bytes.IndexByte(line, '\n'); j >= 0 {
			line = line[:j]
		}
		if _, id, found := bytes.Cut(line, inGoroutine); found {
			g.Parent, _ = strconv.ParseInt(string(id), 10, 64)
		}
	}
	switch g.State {
	case "IO wait":
		g.readWait = bytes.Contains(block, waitRead)
	case "semacquire":
		// sync.runtime_Semacquire*, internal/poll.runtime_Semacquire;
		// the runtime's own calls go through runtime.semacquire1.
		g.userSema = bytes.Contains(block, userSemacquire)
	}
	return g, true
}

// parseHeader reads "goroutine 7 [chan receive, 2 minutes, synctest bubble 1]:".
func parseHeader(line []byte) (Goroutine, bool) {
	var g Goroutine
	rest, ok := bytes.CutPrefix(line, []byte("goroutine "))
	if !ok {
		return g, false
	}
	sp := bytes.IndexByte(rest, ' ')
	if sp < 0 {
		return g, false
	}
	id, err := strconv.ParseInt(string(rest[:sp]), 10, 64)
	if err != nil {
		return g, false
	}
	g.ID = id
	rest = rest[sp+1:]
	// Debug tracebacks insert "gp=... m=..." before the bracket.
	open := bytes.IndexByte(rest, '[')
	end := bytes.LastIndex(rest, []byte("]:"))
	if open < 0 || end < open {
		return g, false
	}
	inner := rest[open+1 : end]
	if i := bytes.Index(inner, []byte(" labels:{")); i >= 0 {
		inner = inner[:i]
	}
	g.Bubble = bytes.Contains(inner, []byte(", synctest bubble "))
	state := inner
	if i := bytes.IndexByte(state, ','); i >= 0 {
		state = state[:i]
	}
	for _, suffix := range []string{" (durable)", " (scan)", " (leaked)"} {
		state = bytes.TrimSuffix(state, []byte(suffix))
	}
	g.State = internState(state)
	return g, true
}

// internState avoids allocating the common state strings on every snapshot.
func internState(b []byte) string {
	switch string(b) {
	case "running":
		return "running"
	case "runnable":
		return "runnable"
	case "chan receive":
		return "chan receive"
	case "chan send":
		return "chan send"
	case "select":
		return "select"
	case "sync.Mutex.Lock":
		return "sync.Mutex.Lock"
	case "IO wait":
		return "IO wait"
	case "sleep":
		return "sleep"
	case "syscall":
		return "syscall"
	}
	return string(b)
}
