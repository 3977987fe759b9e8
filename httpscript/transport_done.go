package httpscript

import (
	"fmt"
	"strings"

	"github.com/retrykit/retrykit/retrytest"
)

// CheckDone checks that the transport served every reply of its scripts:
// each step its full count, and each Always step at least once. A reply
// left over means the client made fewer requests than the test expected —
// it gave up before the 200 it was meant to reach, or never called a
// route. It returns nil or an error listing the unused steps, followed by
// every script with those steps marked:
//
//	httpscript: 1 scripted reply never served: default script step 2 (200 OK)
//	default script:
//	    step  reply                                  times  served
//	    1     429 Too Many Requests, Retry-After: 7  once   1
//	  > 2     200 OK                                 once   0  <-- 1 unused
func (tr *Transport) CheckDone() error {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	var unusedSteps []string
	left := 0
	var tables strings.Builder
	for _, s := range tr.scriptsLocked() {
		bad := false
		for i, st := range s.steps {
			n := stepUnused(st)
			if n == 0 {
				continue
			}
			bad = true
			left += max(n, 1)
			unusedSteps = append(unusedSteps, fmt.Sprintf("%s step %d (%s)", s.name(), i+1, st.reply))
		}
		if bad {
			tables.WriteString(s.name() + ":\n")
			tables.WriteString(s.table("  ", true))
		}
	}
	if len(unusedSteps) == 0 {
		return nil
	}
	what := "1 scripted reply never served"
	if left > 1 {
		what = fmt.Sprintf("%d scripted replies never served", left)
	}
	return fmt.Errorf("httpscript: %s: %s\n%s", what, strings.Join(unusedSteps, ", "), strings.TrimSuffix(tables.String(), "\n"))
}

// AssertDone is [Transport.CheckDone] reported through t.Errorf. It
// returns whether the check passed.
func (tr *Transport) AssertDone(t retrytest.TestingT) bool {
	t.Helper()
	return report(t, tr.CheckDone())
}
