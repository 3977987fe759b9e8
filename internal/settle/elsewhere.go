package settle

import (
	"reflect"
	"runtime"
	"strconv"
	"strings"
)

// ClockWaits is what a fake clock knows of its own pending timers, so that
// a goroutine's stack can be matched against it.
type ClockWaits struct {
	// Armers are the functions, as a dump names them, that armed its
	// pending timers.
	Armers map[string]bool
	// Methods is the prefix of the clock's own methods in a dump
	// ("example.com/fakeclock.(*Clock)."), and Self the clock's address:
	// a goroutine parked in one of those methods on another receiver waits
	// on another clock.
	Methods string
	Self    uintptr
}

// Elsewhere returns one line for each goroutine in scope that is parked in
// the code under test, but not on the clock w describes: asleep in
// time.Sleep, parked in a method of another clock, or waiting in a select
// or a channel receive of the test's code where nothing ties the wait to
// the clock (no timer of the clock was armed by a function on its stack).
// It claims no more than the stack proves (a dump shows neither the
// channels of a select nor the channel of a receive): a real time.After, a
// real timer or a real context deadline look like such a wait, and so does
// a receive from a channel that a timer armed elsewhere feeds. Goroutines
// waiting in the standard library's code (an HTTP connection's loops, say)
// are left out, and so are goroutines for which skip returns true.
func (v View) Elsewhere(w ClockWaits, skip func(Goroutine) bool) []string {
	var out []string
	for i, g := range v.Goroutines {
		if !v.In[i] || skip != nil && skip(g) {
			continue
		}
		if line := elsewhere(g, w); line != "" {
			out = append(out, line)
		}
	}
	return out
}

func elsewhere(g Goroutine, w ClockWaits) string {
	frames := g.Frames()
	// The wait: the first frame outside the runtime (a dump shows the
	// runtime's frames only under GOTRACEBACK=system), and its caller.
	k := 0
	for k < len(frames) && strings.HasPrefix(frames[k].Function, "runtime.") {
		k++
	}
	if k >= len(frames) {
		return ""
	}
	f := frames[k]
	at := f
	if k+1 < len(frames) {
		at = frames[k+1]
	}
	id := "goroutine " + strconv.FormatInt(g.ID, 10)
	if where, ok := sleepsAt(g); ok && g.State == "sleep" {
		return id + " sleeps in time.Sleep (at " + where + "): that is the time package's clock, which no advance of this clock moves; give that code this clock"
	}
	if g.State != "select" && g.State != "chan receive" {
		return ""
	}
	if w.Methods != "" && strings.HasPrefix(f.Function, w.Methods) {
		if self := firstWord(f.Args); self != 0 && self != w.Self {
			return id + " waits in " + shortName(f.Function) + " of another fake clock (at " + at.Site() + "): no advance of this clock wakes it"
		}
		return ""
	}
	if std(f) {
		return ""
	}
	for _, fr := range frames {
		if w.Armers[fr.Function] {
			return "" // a timer of the clock was armed on its way here
		}
	}
	what := "waits in a select"
	if g.State == "chan receive" {
		what = "receives from a channel"
	}
	return id + " " + what + " (at " + f.Site() + ", in " + shortName(f.Function) + ") and no function on its stack armed a timer of this clock: if it waits for time to pass, it waits on something other than this clock (a real time.After, a real timer or a context deadline look like this)"
}

// firstWord parses the first argument word of a frame ("0xc000012345"),
// or returns 0.
func firstWord(args string) uintptr {
	w, _, _ := strings.Cut(args, ",")
	w = strings.TrimSuffix(strings.TrimSpace(w), "?")
	n, err := strconv.ParseUint(strings.TrimPrefix(w, "0x"), 16, 64)
	if err != nil || !strings.HasPrefix(w, "0x") {
		return 0
	}
	return uintptr(n)
}

// goroot is the directory of the standard library's sources as the dump
// names their files ("/usr/local/go/src/"), or "" when the binary was
// built with -trimpath.
var goroot = func() string {
	pc := reflect.ValueOf(runtime.Gosched).Pointer()
	file, _ := runtime.FuncForPC(pc).FileLine(pc)
	return strings.TrimSuffix(file, "runtime/proc.go")
}()

// std reports whether f is in the standard library.
func std(f Frame) bool {
	if strings.HasPrefix(goroot, "/") {
		return strings.HasPrefix(f.File, goroot)
	}
	// Built with -trimpath: the standard library's import paths have no
	// dot in their first element.
	first, _, _ := strings.Cut(f.Function, "/")
	if !strings.Contains(f.Function, "/") {
		first, _, _ = strings.Cut(first, ".")
	}
	return !strings.Contains(first, ".") && first != "main"
}
