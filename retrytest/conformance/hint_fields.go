package conformance

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// hintField is a field a server's wait hint comes in that the suite can
// write: how to write a wait d in it, for a response sent at at, and the
// fields it needs beside it (a provider's reset counts only when its
// remaining count is 0).
type hintField struct {
	name     string
	absolute bool // the value names an instant, measured from the response
	write    func(d time.Duration, at time.Time) string
	beside   http.Header
}

func millis(d time.Duration, _ time.Time) string { return strconv.FormatInt(d.Milliseconds(), 10) }

// hintFields are the fields Hints.Fields may name, as retryafter reads
// them.
var hintFields = []hintField{
	{name: "Retry-After", write: func(d time.Duration, _ time.Time) string { return secs(d) }},
	{name: "Retry-After-Ms", write: millis},
	{name: "X-Ms-Retry-After-Ms", write: millis},
	{name: "X-Amz-Retry-After", write: millis},
	{name: "RateLimit-Reset", write: func(d time.Duration, _ time.Time) string { return secs(d) }, beside: http.Header{"Ratelimit-Remaining": {"0"}}},
	{name: "X-RateLimit-Reset-Requests", write: func(d time.Duration, _ time.Time) string { return d.String() }, beside: http.Header{"X-Ratelimit-Remaining-Requests": {"0"}}},
	{name: "Anthropic-RateLimit-Requests-Reset", absolute: true, write: func(d time.Duration, at time.Time) string { return at.Add(d).UTC().Format(time.RFC3339) },
		beside: http.Header{"Anthropic-Ratelimit-Requests-Remaining": {"0"}}},
}

// fieldNamed returns the hint field named name, case-insensitively.
func fieldNamed(name string) (hintField, bool) {
	i := slices.IndexFunc(hintFields, func(f hintField) bool { return strings.EqualFold(f.name, name) })
	if i < 0 {
		return hintField{}, false
	}
	return hintFields[i], true
}

// checkFields reports a field of Hints.Fields the suite cannot write, or
// one named twice.
func checkFields(fields []string) []string {
	var bad []string
	seen := map[string]bool{}
	for _, name := range fields {
		f, ok := fieldNamed(name)
		switch {
		case !ok:
			names := make([]string, len(hintFields))
			for i, f := range hintFields {
				names[i] = f.name
			}
			bad = append(bad, fmt.Sprintf("Hints.Fields names %q, which the suite cannot write: want some of %s", name, strings.Join(names, ", ")))
		case seen[f.name]:
			bad = append(bad, fmt.Sprintf("Hints.Fields names %s twice", f.name))
		}
		seen[f.name] = true
	}
	return bad
}

// readsRetryAfter reports whether the code reads the Retry-After field.
func (c *config) readsRetryAfter() bool {
	return slices.ContainsFunc(c.spec.ra.Fields, func(n string) bool { return strings.EqualFold(n, "Retry-After") })
}

// fieldCases are the cases of HintFields: one per field, sent alone, and
// with several fields, "precedence": every field at once, the first one
// the code reads asking for d, the others for a second more (or less).
func (c *config) fieldCases(start time.Time) []hintCase {
	d, _ := c.hintSeconds()
	status := c.spec.ra.Statuses[0]
	var hs []hintCase
	for _, name := range c.spec.ra.Fields {
		f, _ := fieldNamed(name)
		h := c.hint(strings.ToLower(f.name), f.name, f.write(d, start), d)
		h.field, h.status, h.extra = f.name, status, f.beside
		if f.absolute {
			h.date, h.after = true, d
		}
		hs = append(hs, h)
	}
	if len(hs) < 2 {
		return hs
	}
	other := d + time.Second
	if other > c.spec.ra.Max {
		other = d - time.Second
	}
	h := c.hint("precedence", "several fields, "+c.spec.ra.Fields[0]+" first", "", d)
	h.status, h.extra = status, http.Header{}
	for i, name := range c.spec.ra.Fields {
		f, _ := fieldNamed(name)
		w := d
		if i > 0 {
			w = other
		}
		h.extra.Set(f.name, f.write(w, start))
		for k, vs := range f.beside {
			h.extra[k] = vs
		}
		if i == 0 {
			h.field, h.value = f.name, f.write(w, start)
			if f.absolute {
				h.date, h.after = true, d
			}
		}
	}
	return append(hs, h)
}
