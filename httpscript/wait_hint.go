package httpscript

import (
	"net/http"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retryafter"
)

// waitHint describes the wait hint a scripted reply carries, for the
// result column of the transport's attempts — `Retry-After: 7 (asks to
// wait 7s)`, `Retry-After: soon (malformed)` — or returns "" when it
// carries none. The hint is read as [retryafter.FromResponse] reads it,
// whatever the status, measured from at, when the request arrived. An
// absolute hint (an HTTP-date) shows without its wait when the request was
// not timed (see Transport.Attempts): on the real clock that wait changes
// from run to run.
func waitHint(reply Reply, at time.Time, timed bool) string {
	if len(reply.header) == 0 {
		return ""
	}
	resp := &http.Response{StatusCode: reply.status, Header: reply.header}
	h, err := retryafter.FromResponse(resp, at, retryafter.WithStatuses())
	if err != nil {
		if v := reply.header.Values("Retry-After"); len(v) > 0 {
			return "Retry-After: " + schedfmt.Cell(v[0], 40) + " (malformed)"
		}
		return ""
	}
	s := h.Field + ": " + schedfmt.Cell(h.Value, 40)
	if !h.At.IsZero() && !timed {
		return s
	}
	return s + " (asks to wait " + schedfmt.Duration(h.Delay) + ")"
}
