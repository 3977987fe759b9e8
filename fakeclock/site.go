package fakeclock

import (
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
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

// pkgPrefix is this package's import path followed by ".", the prefix of the
// names of its functions.
var pkgPrefix = func() string {
	name := runtime.FuncForPC(reflect.ValueOf(pkgMarker).Pointer()).Name()
	return strings.TrimSuffix(name, "pkgMarker")
}()

func pkgMarker() {}

// String returns "file.go:42" for the first frame of the user's code: the
// first one outside this package (its own tests count as user code).
func (s site) String() string {
	if s.n == 0 {
		return "unknown"
	}
	frames := runtime.CallersFrames(s.pcs[:s.n])
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, pkgPrefix) || strings.HasSuffix(f.File, "_test.go") {
			if f.File == "" {
				return "unknown"
			}
			return filepath.Base(f.File) + ":" + strconv.Itoa(f.Line)
		}
		if !more {
			return "unknown"
		}
	}
}
