package settle

import (
	"bytes"
	"runtime"
	"strconv"

	"github.com/retrykit/retrykit/internal/goheader"
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
	// Bubble is the number of the synctest bubble the goroutine belongs
	// to, or 0 outside every bubble.
	Bubble int64
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

// CreatedBy returns the function whose go statement created the goroutine,
// as the dump names it ("net/http.(*Server).Serve"), or nil for the main
// goroutine. It aliases Text.
func (g Goroutine) CreatedBy() []byte {
	_, after, found := bytes.Cut(g.Text, createdBy)
	if !found {
		return nil
	}
	if j := bytes.IndexByte(after, '\n'); j >= 0 {
		after = after[:j]
	}
	fn, _, _ := bytes.Cut(after, inGoroutine)
	return fn
}

// HasFrame reports whether fn ("net/http.(*Server).Serve") is one of the
// functions on the goroutine's stack.
func (g Goroutine) HasFrame(fn string) bool {
	i := 0
	for {
		j := bytes.Index(g.Text[i:], []byte(fn))
		if j < 0 {
			return false
		}
		j += i
		end := j + len(fn)
		if j > 0 && g.Text[j-1] == '\n' && end < len(g.Text) && g.Text[end] == '(' {
			return true
		}
		i = end
	}
}

// Frame is one call on a goroutine's stack.
type Frame struct {
	// Function is the function's name as the dump prints it
	// ("example.com/retry.Do.func1").
	Function string
	// Args is the argument list the dump prints ("0xc000012345, 0x1"),
	// words in hex, or "..." when the call was inlined.
	Args string
	// File and Line say where the call stands in its source.
	File string
	Line int
}

// Frames returns the calls on the goroutine's stack, innermost first,
// without the "created by" line.
func (g Goroutine) Frames() []Frame {
	var out []Frame
	lines := bytes.Split(g.Text, []byte{'\n'})
	for i := 1; i+1 < len(lines); i++ {
		fn := lines[i]
		if len(fn) == 0 || fn[0] == '\t' || bytes.HasPrefix(fn, []byte("created by ")) {
			continue
		}
		open := bytes.LastIndexByte(fn, '(')
		if open < 0 || fn[len(fn)-1] != ')' {
			continue
		}
		f := Frame{Function: string(fn[:open]), Args: string(fn[open+1 : len(fn)-1])}
		loc := bytes.TrimPrefix(lines[i+1], []byte{'\t'})
		if sp := bytes.LastIndex(loc, []byte(" +0x")); sp >= 0 {
			loc = loc[:sp]
		}
		if colon := bytes.LastIndexByte(loc, ':'); colon >= 0 {
			f.File = string(loc[:colon])
			f.Line, _ = strconv.Atoi(string(loc[colon+1:]))
		}
		out = append(out, f)
		i++
	}
	return out
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
			dump = buf[:n]
			if h := dumpHook.Load(); h != nil {
				dump = (*h)(dump)
			}
			return buf, dump
		}
		buf = make([]byte, 2*len(buf))
	}
}

// Parse splits a dump into goroutines. Blocks it cannot read are skipped
// (the oracle's own looks refuse a dump with one: see [Untrusted]). The
// returned goroutines alias dump.
func Parse(dump []byte) []Goroutine {
	return parseInto(nil, dump, nil)
}

// parseInto is Parse appending to out. When bad is not nil and a block
// cannot be read, *bad is set to the first line of the first such block.
func parseInto(out []Goroutine, dump []byte, bad *[]byte) []Goroutine {
	for len(dump) > 0 {
		var block []byte
		if i := bytes.Index(dump, []byte("\n\n")); i >= 0 {
			block, dump = dump[:i+1], dump[i+2:]
		} else {
			block, dump = dump, nil
		}
		if g, ok := parseBlock(block); ok {
			out = append(out, g)
		} else if bad != nil && *bad == nil && len(bytes.TrimSpace(block)) > 0 {
			line, _, _ := bytes.Cut(block, []byte{'\n'})
			*bad = line
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
	h, ok := goheader.Parse(line)
	if !ok {
		return Goroutine{}, false
	}
	return Goroutine{ID: h.ID, Bubble: h.Bubble, State: internState(h.State)}, true
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
