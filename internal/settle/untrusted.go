package settle

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
)

// Untrusted is the error of a settle that refuses to trust the goroutine
// dump: the running Go describes a goroutine in a way this package does
// not know (an unrecognized state, a header it cannot read), or the
// self-check found that a goroutine it parked itself does not read as
// expected. The dump's text is not an API of the runtime, and a guess
// would decide the outcome of the caller's test; so the settle fails at
// once, whatever its budget.
type Untrusted struct {
	// Go is the running Go release (runtime.Version()).
	Go string
	// Problem says what did not read as expected, e.g. `goroutine 12 is
	// in the state "chan frob", which is neither idle nor busy here`.
	Problem string
	// Saw is the text of the dump that shows it: a header line, or a
	// goroutine's whole block.
	Saw string
}

// Error describes the problem and quotes the dump.
func (e *Untrusted) Error() string {
	var b strings.Builder
	b.WriteString("settle: the goroutine dump of " + e.Go + " does not read as this package expects: " + e.Problem)
	if e.Saw != "" {
		b.WriteString("; the dump shows:\n" + strings.TrimRight(e.Saw, "\n"))
	}
	return b.String()
}

func untrusted(problem, saw string) *Untrusted {
	return &Untrusted{Go: runtime.Version(), Problem: problem, Saw: saw}
}

// dumpHook, when set, rewrites every dump Snapshot returns. It is the
// parser's seam for tests: a test that rewrites a state or a header sees
// what a Go release with another dump format would do.
var dumpHook atomic.Pointer[func([]byte) []byte]

// SetDumpHook makes every later dump pass through rewrite, so that a test
// can show what an unknown state or header does, and returns the function
// that removes it. It reruns the self-check on the next settle, and again
// after the hook is removed. For tests only.
func SetDumpHook(rewrite func(dump []byte) []byte) (restore func()) {
	dumpHook.Store(&rewrite)
	resetSelfCheck()
	return func() {
		dumpHook.Store(nil)
		resetSelfCheck()
	}
}

// RewriteBlock returns a dump hook, for [SetDumpHook], that replaces old
// by new once in the block of goroutine id, and leaves the rest of the
// dump alone. For tests only.
func RewriteBlock(id int64, old, new string) func(dump []byte) []byte {
	head := []byte(fmt.Sprintf("goroutine %d [", id))
	return func(dump []byte) []byte {
		i := bytes.Index(dump, head)
		if i < 0 {
			return dump
		}
		end := bytes.Index(dump[i:], []byte("\n\n"))
		if end < 0 {
			end = len(dump) - i
		}
		out := append(bytes.Clone(dump[:i]), bytes.Replace(dump[i:i+end], []byte(old), []byte(new), 1)...)
		return append(out, dump[i+end:]...)
	}
}
