package fakeclock

import (
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/retrykit/retrykit/clockctx"
)

// site is the call stack that armed a timer, resolved to "file.go:42" of the
// first frame outside this package only when printed: one frame, the
// user's, when that is all it takes (see callerFrame), else a stack. It is
// small, as every timer holds one.
type site struct {
	pc    [1]uintptr // the one frame, from callerFrame; 0 with a stack
	stack []uintptr  // the stack, from callers
}

// callers captures the stack above the function calling callers, skip
// frames further up: callers(0) starts at that function's caller.
func callers(skip int) site {
	pcs := make([]uintptr, 10)
	return site{stack: pcs[:runtime.Callers(3+skip, pcs)]}
}

// callerFrame is the cheap start of the site of a timer, which every arm
// pays for: the one frame that called the function calling callerFrame.
// Most calls of the clock come straight from the user's code, whose
// frame is then the whole site (see whole). Being inlined, it unwinds two
// frames; a whole stack costs several times more.
func callerFrame() (s site) {
	runtime.Callers(3, s.pc[:])
	return
}

// whole reports whether s, from callerFrame, is the whole site: its frame
// is the user's code. Otherwise (clockctx's functions, a method value)
// the caller takes the stack with callers.
func (s site) whole() bool { return s.pc[0] != 0 && userPC(s.pc[0]) }

// equal reports whether s and o name the same stack.
func (s site) equal(o site) bool { return s.pc == o.pc && slices.Equal(s.stack, o.stack) }

// pcs returns the program counters of s.
func (s site) pcs() []uintptr {
	if s.pc[0] != 0 {
		return s.pc[:]
	}
	return s.stack
}

// userPCs remembers, for the program counters sites have started with,
// whether that frame alone gives the site (it is the user's code): a table
// indexed by a hash of the counter, where a collision only costs a look-up
// again. Every timer armed reads it, from any goroutine, so it takes no
// lock.
var userPCs [256]atomic.Pointer[pcVerdict]

type pcVerdict struct {
	pc   uintptr
	user bool
}

// userPC reports whether a site of the one frame pc names a frame of the
// user's code, as String would.
func userPC(pc uintptr) bool {
	slot := &userPCs[(pc^pc>>8)%uintptr(len(userPCs))]
	if v := slot.Load(); v != nil && v.pc == pc {
		return v.user
	}
	_, user := site{pc: [1]uintptr{pc}}.frame()
	slot.Store(&pcVerdict{pc: pc, user: user})
	return user
}

// pkgPrefix and ctxPrefix are the import paths of this package and of
// clockctx followed by ".", the prefixes of the names of their functions.
var (
	pkgPrefix = funcPrefix(pkgMarker, "pkgMarker")
	ctxPrefix = funcPrefix(clockctx.WithDeadlineCause, "WithDeadlineCause")
)

func pkgMarker() {}

func funcPrefix(f any, name string) string {
	return strings.TrimSuffix(runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name(), name)
}

// String returns "file.go:42" for the first frame of the user's code: the
// first one outside this package and clockctx, whose functions call the
// clock for the user (this package's own tests count as user code).
func (s site) String() string {
	f, ok := s.frame()
	if !ok || f.File == "" {
		return "unknown"
	}
	return filepath.Base(f.File) + ":" + strconv.Itoa(f.Line)
}

// function returns the name of the function of the frame String
// describes, as a goroutine dump prints it ("example.com/retry.Do"), or ""
// when it is unknown.
func (s site) function() string {
	f, _ := s.frame()
	return f.Function
}

func (s site) frame() (runtime.Frame, bool) {
	pcs := s.pcs()
	if len(pcs) == 0 {
		return runtime.Frame{}, false
	}
	frames := runtime.CallersFrames(pcs)
	for {
		f, more := frames.Next()
		ours := strings.HasPrefix(f.Function, pkgPrefix) || strings.HasPrefix(f.Function, ctxPrefix)
		if !ours || strings.HasSuffix(f.File, "_test.go") {
			return f, true
		}
		if !more {
			return runtime.Frame{}, false
		}
	}
}
