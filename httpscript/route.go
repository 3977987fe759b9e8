package httpscript

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// script is one sequence of replies: the transport's default script or a
// route's. It is guarded by the transport's mutex.
type script struct {
	pattern string // "" for the default script
	steps   []scriptStep
}

// scriptStep is a reply with how often it has been served.
type scriptStep struct {
	reply  Reply
	served int
}

func newScript(pattern string, replies []Reply) *script {
	s := &script{pattern: pattern}
	for _, r := range replies {
		s.steps = append(s.steps, scriptStep{reply: r})
	}
	return s
}

// next returns the reply for the next request and its 1-based step, or
// false when every step has been served its count.
func (s *script) next() (Reply, int, bool) {
	for i := range s.steps {
		st := &s.steps[i]
		if n := st.reply.limit(); n == 0 || st.served < n {
			st.served++
			return st.reply, i + 1, true
		}
	}
	return Reply{}, 0, false
}

// name is how messages refer to the script.
func (s *script) name() string {
	if s.pattern == "" {
		return "default script"
	}
	return "script of route " + strconv.Quote(s.pattern)
}

// table renders the script: one row per step with its count and how often
// it was served; with markUnused, steps not served their full count are
// marked.
func (s *script) table(indent string, markUnused bool) string {
	tab := schedfmt.Grid{Header: []string{"step", "reply", "times", "served"}, Indent: indent}
	for i, st := range s.steps {
		left := stepUnused(st)
		reason := ""
		if left > 0 {
			reason = fmt.Sprintf("%d unused", left)
		} else if left < 0 {
			reason = "never served"
		}
		tab.Rows = append(tab.Rows, schedfmt.GridRow{
			Cells:  []string{strconv.Itoa(i + 1), st.reply.String(), st.reply.count(), strconv.Itoa(st.served)},
			Marked: markUnused && left != 0,
			Reason: reason,
		})
	}
	if len(s.steps) == 0 {
		return indent + "  (no replies)\n"
	}
	return tab.String()
}

// stepUnused is how many times a step can still be served: its count minus
// the times served, or -1 for an Always step never served, 0 for one
// served at least once.
func stepUnused(st scriptStep) int {
	n := st.reply.limit()
	if n == 0 {
		if st.served == 0 {
			return -1
		}
		return 0
	}
	return n - st.served
}

// routeHandler marks a route in the ServeMux the transport matches with,
// so that ServeMux's own redirect and not-found handlers are told apart
// from a match.
type routeHandler struct{ route *script }

func (routeHandler) ServeHTTP(http.ResponseWriter, *http.Request) {}

// match returns the script that answers req: the route whose pattern
// matches it by the rules of [http.ServeMux], or else the default script.
func (tr *Transport) match(req *http.Request) *script {
	if tr.mux == nil {
		return tr.def
	}
	r := req
	if r.Host == "" && r.URL != nil {
		c := *req
		c.Host = req.URL.Host
		r = &c
	}
	if r.URL == nil {
		return tr.def
	}
	if h, _ := tr.mux.Handler(r); h != nil {
		if rh, ok := h.(routeHandler); ok {
			return rh.route
		}
	}
	return tr.def
}
