package settle

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
)

// View is one snapshot of the process's goroutines, each with its origin
// and whether it is in an oracle's scope.
type View struct {
	Goroutines []Goroutine
	Origins    []Origin
	// In reports, for each goroutine, whether it is in scope. The caller
	// (Goroutines[0]) never is.
	In []bool
	// alive indexes the goroutines of the snapshot that run a test.
	alive map[int64]int
}

// Look takes a snapshot and sorts it by the oracle's scope: every goroutine
// of the process except the caller, the goroutines of synctest bubbles
// other than the caller's (synctest settles those, on a time no clock
// outside moves; one left asleep in an abandoned bubble would keep every
// settle busy), the
// lifelong goroutines of the runtime and standard library, and those
// started by another test that is still
// running (their ancestry reaches a test goroutine alive now that is
// neither the oracle's test, nor an ancestor of it, nor the caller's). A
// goroutine whose ancestry is lost counts in.
func (o *Oracle) Look() View {
	return o.look(new(scratch))
}

// look is Look into the buffers of s: the view aliases them until the next
// look into s.
func (o *Oracle) look(s *scratch) View {
	process.look(s)
	gs, origins := s.gs, s.origins
	if len(gs) == 0 {
		return View{} // a dump the parser could not read at all
	}
	tests := o.tests
	if c := origins[0].Test; c > 0 && !tests[c] {
		tests = make(map[int64]bool, len(o.tests)+2)
		for id := range o.tests {
			tests[id] = true
		}
		process.chain(origins[0], tests)
	}
	// The other tests that are running: their goroutines are out of scope.
	var others []int64
	for id := range s.alive {
		if !tests[id] {
			others = append(others, id)
		}
	}
	s.in = slices.Grow(s.in[:0], len(gs))[:len(gs)]
	s.in[0] = false
	for i := 1; i < len(gs); i++ {
		or := origins[i]
		s.in[i] = (gs[i].Bubble == 0 || gs[i].Bubble == gs[0].Bubble) && !or.Lifelong && !(or.Test > 0 && slices.Contains(others, or.Test))
	}
	return View{Goroutines: gs, Origins: origins, In: s.in, alive: s.alive}
}

// LookBubble takes a snapshot and puts in scope the goroutines of the
// synctest bubble numbered bubble, except the caller.
func LookBubble(bubble int64) View {
	_, dump := Snapshot(nil)
	gs := Parse(dump)
	in := make([]bool, len(gs))
	for i := 1; i < len(gs); i++ {
		in[i] = gs[i].Bubble == bubble
	}
	return View{Goroutines: gs, Origins: make([]Origin, len(gs)), In: in}
}

// Note says what the stack and the ancestry prove about goroutine i that
// may explain why it keeps a settle from finishing, or "".
func (v View) Note(i int) string {
	g, or := v.Goroutines[i], v.Origins[i]
	var notes []string
	if at, ok := sleepsAt(g); ok {
		notes = append(notes, "it sleeps in time.Sleep (at "+at+"): that is the time package's clock, which no advance of a fake clock moves")
	}
	if bytes.Equal(g.CreatedBy(), []byte("time.goFunc")) {
		notes = append(notes, "it runs the callback of a real time.AfterFunc or a real context deadline")
	}
	switch _, running := v.alive[or.Test]; {
	case or.Test == Unknown:
		notes = append(notes, "nothing tells which test started it (a goroutine on the way exited before any snapshot saw it): it may belong to another test")
	case or.Test > 0 && !running:
		name := process.name(or.Test)
		if name == "" {
			name = "goroutine " + strconv.FormatInt(or.Test, 10)
		}
		notes = append(notes, "it was started by the test "+name+", which has ended: it may be a goroutine that test left behind")
	case or.Test == NoTest && g.Parent != 0:
		notes = append(notes, "it was started outside every test (by init, TestMain or an Example)")
	}
	return strings.Join(notes, "; ")
}

// sleepsAt reports whether g is in time.Sleep — asleep, or woken and not
// yet running — and where the call is ("client.go:42, in pkg.retry"), or
// the site of time.Sleep when nothing called it.
func sleepsAt(g Goroutine) (string, bool) {
	frames := g.Frames()
	k := 0
	for k < len(frames) && strings.HasPrefix(frames[k].Function, "runtime.") {
		k++
	}
	if k >= len(frames) || frames[k].Function != "time.Sleep" {
		return "", false
	}
	if k+1 < len(frames) {
		return frames[k+1].Site() + ", in " + shortName(frames[k+1].Function), true
	}
	return frames[k].Site(), true
}

// Site returns "file.go:42".
func (f Frame) Site() string {
	file := f.File
	if i := strings.LastIndexByte(file, '/'); i >= 0 {
		file = file[i+1:]
	}
	return file + ":" + strconv.Itoa(f.Line)
}
