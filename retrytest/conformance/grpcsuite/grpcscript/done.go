package grpcscript

import (
	"fmt"
	"strings"

	"github.com/retrykit/retrykit/retrytest"
)

// CheckDone checks that the server served every reply of its scripts:
// each step its full count, and each Always step at least once. A reply
// left over means the client made fewer attempts than the test expected:
// it gave up before the OK it was meant to reach, or never called a
// method. It returns nil or an error listing the unused steps, followed by
// every script with those steps marked:
//
//	grpcscript: 1 scripted reply never served: /grpc.testing.TestService/EmptyCall step 2 (OK)
//	script of /grpc.testing.TestService/EmptyCall:
//	    step  reply        times  served
//	    1     Unavailable  once   1
//	  > 2     OK           once   0  <-- 1 unused
//
// When no attempt reached the server at all, it says which target a
// client must dial.
func (s *Server) CheckDone() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var unused []string
	left := 0
	var tables strings.Builder
	for _, sc := range s.scripts {
		bad := false
		for i, st := range sc.steps {
			n := stepUnused(st)
			if n == 0 {
				continue
			}
			bad = true
			left += max(n, 1)
			unused = append(unused, fmt.Sprintf("%s step %d (%s)", sc.method, i+1, st.reply))
		}
		if bad {
			tables.WriteString("script of " + sc.method + ":\n")
			tables.WriteString(sc.table("  ", true))
		}
	}
	if len(unused) == 0 {
		return nil
	}
	what := "1 scripted reply never served"
	if left > 1 {
		what = fmt.Sprintf("%d scripted replies never served", left)
	}
	msg := fmt.Sprintf("grpcscript: %s: %s\n%s", what, strings.Join(unused, ", "), tables.String())
	if len(s.attempts) == 0 {
		msg += "no attempt reached the server: a client reaches it by dialing " + target + " with its DialOptions (Server.Dial does both)\n"
	}
	return fmt.Errorf("%s", strings.TrimSuffix(msg, "\n"))
}

// AssertDone is [Server.CheckDone] reported through t.Errorf. It returns
// whether the check passed.
func (s *Server) AssertDone(t retrytest.TestingT) bool {
	t.Helper()
	if err := s.CheckDone(); err != nil {
		t.Errorf("%v", err)
		return false
	}
	return true
}
