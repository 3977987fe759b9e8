package fakeclock

import (
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"

	"github.com/retrykit/retrykit/clockctx"
)

// site is the call stack that armed a timer, resolved to "file.go:42" of the
// first frame outside this package only when printed.
type site struct {
	pcs [10]uintptr
	n   int
}

// callers captures the stack of the function calling callers' caller.
func callers() site {
	var s site
	s.n = runtime.Callers(3, s.pcs[:])
	return s
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
	if s.n == 0 {
		return runtime.Frame{}, false
	}
	frames := runtime.CallersFrames(s.pcs[:s.n])
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
