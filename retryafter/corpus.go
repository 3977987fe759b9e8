package retryafter

import (
	"bufio"
	"bytes"
	_ "embed" // for the vectors
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// vectors is retrykit's research corpus of wait hints (one JSON object per
// line), the data behind Corpus.
//
//go:embed testdata/vectors.jsonl
var vectors []byte

// Vector is one documented case of the corpus: a field value or a whole
// response, the instant it is read at, and what a trustworthy reader must
// make of it under a Limits with bounds Min and Max and the Clamp action.
type Vector struct {
	// ID names the case, for example "RA013". IDs are stable; some numbers
	// are unused.
	ID string
	// Group is the family of cases, for example "retry-after-seconds",
	// "retry-after-http-date", "openai" or "precedence".
	Group string
	// Field is the field the value is read from, for example "Retry-After"
	// or "X-RateLimit-Reset-Tokens" ("google.rpc.RetryInfo.retryDelay" for
	// the JSON body field that ParseProtoDuration reads). It is empty for a
	// response case, whose fields are in Header.
	Field string
	// Value is the raw field value. For a response case it is the header
	// block, for reading only.
	Value string
	// Header and Status are a response case's header and status; Header is
	// nil for a field case.
	Header http.Header
	Status int
	// Provider is the provider whose convention the case follows, as the
	// research names it ("openai", "azure-openai", "github", "google", ...),
	// or "" for standard fields. Use [Vector.Providers] for the option.
	Provider string
	// Now is the instant the value is read at.
	Now time.Time
	// UseDateHeader says the case measures dates against the response's
	// Date header ([WithDateHeader]).
	UseDateHeader bool
	// Min and Max are the bounds of the Limits the case is judged under:
	// 0 and DefaultMax unless the case says otherwise.
	Min, Max time.Duration
	// Want is the delay after the Limits, when WantErr is nil.
	Want time.Duration
	// Raw is the delay the value asks for before any bounds, when WantErr
	// is nil: Want, but for a vector whose Limits clamp or floor it;
	// [Forever] for one a Duration cannot hold (over 9,223,372,036s).
	// A bare parser is judged against it (see [Vector.Judge]).
	Raw time.Duration
	// WantErr is nil when the value gives a delay, or the sentinel its
	// error must wrap: ErrEmpty, ErrMalformed or ErrNoHint.
	WantErr error
	// StrictWantErr is WantErr for a strict reader ([ParseStrict],
	// [WithStrict]). It differs from WantErr only where the RFC grammar is
	// narrower than what lenient readers accept, such as "1.5".
	StrictWantErr error
	// Outcome is the research's label for the expected result: "delay",
	// "zero", "clamped", "floored", "malformed → fallback", "absent/empty
	// → fallback" or "no hint → fallback".
	Outcome string
	// Note says why; Reference cites where the case comes from.
	Note, Reference string
}

// Providers returns the Providers to opt in to for this case: none for
// standard fields, [OpenAI] for "openai" and "azure-openai", and so on.
func (c Vector) Providers() []Provider {
	switch c.Provider {
	case "openai", "azure-openai":
		return []Provider{OpenAI}
	case "anthropic":
		return []Provider{Anthropic}
	case "github":
		return []Provider{GitHub}
	case "x":
		return []Provider{X}
	case "discord":
		return []Provider{Discord}
	}
	return nil
}

// Response returns a new response for a response case: its Status, a
// clone of its Header and an empty body. It returns nil for a field case.
func (c Vector) Response() *http.Response {
	if c.Header == nil {
		return nil
	}
	return &http.Response{
		Status:     fmt.Sprintf("%d %s", c.Status, http.StatusText(c.Status)),
		StatusCode: c.Status,
		Proto:      "HTTP/1.1",
		ProtoMajor: 1,
		ProtoMinor: 1,
		Header:     c.Header.Clone(),
		Body:       http.NoBody,
	}
}

// Corpus returns retrykit's corpus of wait hints: real values from
// standards, provider documentation and bug reports, and the malformed and
// absurd values that broke real clients (NaN, Inf, 1e100, 9223372037,
// "+120", a date with CEST, 86400, ...), each with the expected result and
// its source. Every call returns a fresh copy, in ID order.
//
// The cases run against this package in its own tests, in lenient and
// strict mode. To check your own parser against them, use
// conformance.TestParser (or [Vector.Judge], one at a time).
func Corpus() []Vector {
	cases := loadCorpus()
	out := slices.Clone(cases)
	for i := range out {
		out[i].Header = out[i].Header.Clone()
	}
	return out
}

var loadCorpus = sync.OnceValue(func() []Vector {
	cases, err := decodeCorpus(vectors)
	if err != nil {
		panic("retryafter: Corpus: " + err.Error())
	}
	slices.SortStableFunc(cases, func(a, b Vector) int { return strings.Compare(a.ID, b.ID) })
	return cases
})

// vector is one line of the JSONL file.
type vector struct {
	ID              string              `json:"id"`
	Group           string              `json:"group"`
	Header          string              `json:"header"`
	Value           string              `json:"value"`
	Now             time.Time           `json:"now"`
	WantError       bool                `json:"want_error"`
	WantDelayMs     *float64            `json:"want_delay_ms"`
	RawDelayMs      *float64            `json:"raw_delay_ms"`
	RawBeyond       bool                `json:"raw_beyond"`
	Outcome         string              `json:"outcome"`
	ErrorKind       string              `json:"error_kind"`
	StrictWantError bool                `json:"strict_want_error"`
	Provider        string              `json:"provider"`
	Headers         map[string][]string `json:"headers"`
	Status          int                 `json:"status"`
	Limits          *struct {
		MinMs float64 `json:"min_ms"`
		MaxMs float64 `json:"max_ms"`
	} `json:"policy"`
	Options struct {
		UseDateHeader bool `json:"use_date_header"`
	} `json:"options"`
	Note   string `json:"note"`
	Source string `json:"source"`
}

func decodeCorpus(data []byte) ([]Vector, error) {
	var cases []Vector
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		var v vector
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		c, err := v.toCase()
		if err != nil {
			return nil, fmt.Errorf("line %d (%s): %w", line, v.ID, err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return cases, nil
}

func (v vector) toCase() (Vector, error) {
	c := Vector{
		ID: v.ID, Group: v.Group, Value: v.Value, Now: v.Now.UTC(),
		Provider: v.Provider, UseDateHeader: v.Options.UseDateHeader,
		Min: 0, Max: DefaultMax, Outcome: v.Outcome, Note: v.Note, Reference: v.Source,
	}
	if v.Header == "(response)" {
		if v.Headers == nil {
			return Vector{}, fmt.Errorf("response case without headers")
		}
		c.Header = http.Header{}
		for k, vs := range v.Headers {
			for _, s := range vs {
				c.Header.Add(k, s)
			}
		}
		c.Status = v.Status
		if c.Status == 0 {
			c.Status = http.StatusTooManyRequests
		}
	} else {
		c.Field = fieldSpelling(v.Header)
	}
	if v.Limits != nil {
		c.Min, c.Max = millis(v.Limits.MinMs), millis(v.Limits.MaxMs)
	}
	kind := map[string]error{"malformed": ErrMalformed, "empty": ErrEmpty, "no_hint": ErrNoHint}
	switch {
	case v.WantError:
		var ok bool
		if c.WantErr, ok = kind[v.ErrorKind]; !ok {
			return Vector{}, fmt.Errorf("unknown error_kind %q", v.ErrorKind)
		}
	case v.WantDelayMs == nil:
		return Vector{}, fmt.Errorf("neither want_error nor want_delay_ms")
	default:
		c.Want = millis(*v.WantDelayMs)
		c.Raw = c.Want
		switch {
		case v.RawBeyond:
			c.Raw = Forever
		case v.RawDelayMs != nil:
			c.Raw = millis(*v.RawDelayMs)
		case v.Outcome == "clamped" || v.Outcome == "floored":
			return Vector{}, fmt.Errorf("a %s vector without raw_delay_ms or raw_beyond: the delay the value asks for before the Limits", v.Outcome)
		}
	}
	c.StrictWantErr = c.WantErr
	if v.StrictWantError {
		c.StrictWantErr = ErrMalformed
		if c.Header != nil {
			c.StrictWantErr = ErrNoHint
		}
	}
	return c, nil
}

// millis converts a possibly fractional count of milliseconds, rounding to
// the nearest nanosecond.
func millis(ms float64) time.Duration {
	if ms == math.Trunc(ms) && math.Abs(ms) < 1<<53 {
		// Exact in integers: 9223372036000ms in floats would be off by
		// hundreds of nanoseconds.
		return time.Duration(int64(ms)) * time.Millisecond
	}
	return time.Duration(math.Round(ms * 1e6))
}

// fieldSpelling returns the package's spelling of a field name written in
// any case ("x-ratelimit-reset" → "X-RateLimit-Reset"); names it does not
// know are kept.
func fieldSpelling(name string) string {
	key := http.CanonicalHeaderKey(name)
	for _, f := range allSpecs {
		if http.CanonicalHeaderKey(f.name) == key {
			return f.name
		}
	}
	return name
}
