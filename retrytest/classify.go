package retrytest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// ClassifyCase is one row of a classification table for
// [CheckClassifier]: an error, a response status or both, and what the
// classifier must decide about them.
type ClassifyCase struct {
	// Name labels the row in the failure table. If empty, the row is
	// labelled by its status and error.
	Name string
	// Err is the error the classifier is given (may be nil with a
	// Status).
	Err error
	// Status, when not 0, gives HTTP classifiers a response with this
	// status (and an empty header and body). Classifiers that take only
	// an error cannot be given a Status.
	Status int
	// Retry is whether the classifier must retry.
	Retry bool
	// Reason, when not empty, is the reason the classifier must give:
	// "backoff", "permanent", "retry-after". Leave it empty for a
	// classifier that gives no reason.
	Reason string
	// MinDelay, for a classifier returning a Decision that retries, is the
	// shortest delay allowed: a 429 must not be retried at once, a
	// Retry-After of 120 must not be waited less than 120s. Any Decision
	// that retries must have a delay >= 0.
	MinDelay time.Duration
}

// The classifier shapes CheckClassifier accepts, and named function types
// convertible to them (go-retryablehttp's CheckRetry is one).
var (
	classifyBool      = reflect.TypeFor[func(error) bool]()
	classifyReason    = reflect.TypeFor[func(error) (bool, string)]()
	classifyDecision  = reflect.TypeFor[func(error) Decision]()
	classifyResponse  = reflect.TypeFor[func(*http.Response, error) bool]()
	classifyCheckRtry = reflect.TypeFor[func(context.Context, *http.Response, error) (bool, error)]()
)

const classifyShapes = "func(error) bool, func(error) (bool, string), func(error) retrytest.Decision, " +
	"func(*http.Response, error) bool or func(context.Context, *http.Response, error) (bool, error)"

// classifier is a classifier of any accepted shape, normalised.
type classifier struct {
	call      func(resp *http.Response, err error) (retry bool, reason string, delay time.Duration)
	http      bool // takes a response
	reasons   bool // gives a reason
	decisions bool // gives a delay
	shape     string
}

func newClassifier(f any) (classifier, error) {
	v := reflect.ValueOf(f)
	switch {
	case f == nil:
		return classifier{}, fmt.Errorf("got nil, want %s", classifyShapes)
	case v.Kind() != reflect.Func:
		return classifier{}, fmt.Errorf("got %T, want %s", f, classifyShapes)
	case v.IsNil():
		return classifier{}, fmt.Errorf("got a nil %s, want a classifier that is not nil", v.Type())
	}
	t := v.Type()
	switch {
	case t.ConvertibleTo(classifyBool):
		g := v.Convert(classifyBool).Interface().(func(error) bool)
		return classifier{shape: "func(error) bool", call: func(_ *http.Response, err error) (bool, string, time.Duration) {
			return g(err), "", 0
		}}, nil
	case t.ConvertibleTo(classifyReason):
		g := v.Convert(classifyReason).Interface().(func(error) (bool, string))
		return classifier{shape: "func(error) (bool, string)", reasons: true, call: func(_ *http.Response, err error) (bool, string, time.Duration) {
			ok, why := g(err)
			return ok, why, 0
		}}, nil
	case t.ConvertibleTo(classifyDecision):
		g := v.Convert(classifyDecision).Interface().(func(error) Decision)
		return classifier{shape: "func(error) Decision", reasons: true, decisions: true, call: func(_ *http.Response, err error) (bool, string, time.Duration) {
			d := g(err)
			return d.Retry, d.Reason, d.Delay
		}}, nil
	case t.ConvertibleTo(classifyResponse):
		g := v.Convert(classifyResponse).Interface().(func(*http.Response, error) bool)
		return classifier{shape: "func(*http.Response, error) bool", http: true, call: func(resp *http.Response, err error) (bool, string, time.Duration) {
			return g(resp, err), "", 0
		}}, nil
	case t.ConvertibleTo(classifyCheckRtry):
		g := v.Convert(classifyCheckRtry).Interface().(func(context.Context, *http.Response, error) (bool, error))
		return classifier{shape: "func(context.Context, *http.Response, error) (bool, error)", http: true, reasons: true,
			call: func(resp *http.Response, err error) (bool, string, time.Duration) {
				ok, cerr := g(context.Background(), resp, err)
				if cerr != nil {
					return ok, cerr.Error(), 0
				}
				return ok, "", 0
			}}, nil
	}
	return classifier{}, fmt.Errorf("got %s, want %s", t, classifyShapes)
}

// CheckClassifier runs classify over a table of cases — the errors and
// responses a retry loop meets, each with whether it must be retried and
// why — and returns nil, or an error whose text is the whole table with
// every wrong row marked:
//
//	retrytest: classifier gets 2 of 4 cases wrong: case 2 (429 Too Many Requests), case 3 (404 Not Found)
//	    case  input                    got    want
//	    1     503 Service Unavailable  retry  retry
//	  > 2     429 Too Many Requests    stop   retry  <-- wrong decision
//	  > 3     404 Not Found            retry  stop  <-- wrong decision
//	    4     connect timeout          retry  retry
//
// classify is one of the usual shapes of a retry classifier, or a named
// function type with the same signature:
//
//	func(error) bool
//	func(error) (retry bool, reason string)
//	func(error) retrytest.Decision                              // a pure policy with the attempt and rng fixed
//	func(*http.Response, error) bool                            // failsafe-go's handle-if predicates
//	func(context.Context, *http.Response, error) (bool, error)  // go-retryablehttp's CheckRetry
//
// For the last shape, the reason is the text of the error it returns.
// A case's Status builds the response for the HTTP shapes; its Reason is
// compared only when not empty; its MinDelay applies to Decisions. A
// classifier that panics on a case gets that case wrong; the others still
// run. Every wrong row is marked, since the rows do not depend on each
// other, and its note names every wrong aspect of it: "wrong decision,
// wrong reason", "wrong reason, delay under 2m". A classifier of another shape, no cases, a Status given to an
// error-only classifier and a Reason wanted of one that gives none are
// reported as input errors.
func CheckClassifier[C ~func(error) bool | ~func(error) (bool, string) | ~func(error) Decision |
	~func(*http.Response, error) bool | ~func(context.Context, *http.Response, error) (bool, error)](classify C, cases ...ClassifyCase) error {
	c, err := newClassifier(classify)
	if err != nil {
		return fmt.Errorf("retrytest: CheckClassifier: %w", err)
	}
	if len(cases) == 0 {
		return errors.New("retrytest: CheckClassifier: no cases, want at least one ClassifyCase")
	}
	for i, tc := range cases {
		switch {
		case tc.Status != 0 && !c.http:
			return fmt.Errorf("retrytest: CheckClassifier: case %d (%s) has Status %d, but a %s takes no response",
				i+1, caseName(tc), tc.Status, c.shape)
		case tc.Status != 0 && (tc.Status < 100 || tc.Status > 999):
			return fmt.Errorf("retrytest: CheckClassifier: case %d (%s) has Status %d, want 100-999",
				i+1, caseName(tc), tc.Status)
		case tc.Reason != "" && !c.reasons:
			return fmt.Errorf("retrytest: CheckClassifier: case %d (%s) wants reason %q, but a %s gives none",
				i+1, caseName(tc), tc.Reason, c.shape)
		case tc.MinDelay < 0:
			return fmt.Errorf("retrytest: CheckClassifier: case %d (%s) has MinDelay %s, want >= 0s",
				i+1, caseName(tc), schedfmt.Duration(tc.MinDelay))
		}
	}
	tab := schedfmt.Grid{Header: []string{"case", "input", "got", "want"}, Indent: "  "}
	var wrong []string
	for i, tc := range cases {
		got, why := runCase(c, tc)
		tab.Rows = append(tab.Rows, schedfmt.GridRow{Cells: []string{strconv.Itoa(i + 1), caseName(tc), got, wantText(c, tc)}, Marked: why != "", Reason: why})
		if why != "" {
			wrong = append(wrong, fmt.Sprintf("case %d (%s)", i+1, caseName(tc)))
		}
	}
	if len(wrong) == 0 {
		return nil
	}
	return fmt.Errorf("retrytest: classifier gets %d of %d cases wrong: %s\n%s",
		len(wrong), len(cases), strings.Join(wrong, ", "), strings.TrimSuffix(tab.String(), "\n"))
}

// runCase runs one case and returns what the classifier decided, and every
// way that is wrong, joined by commas ("" when it is right).
func runCase(c classifier, tc ClassifyCase) (got, wrong string) {
	var resp *http.Response
	if tc.Status != 0 {
		resp = &http.Response{
			Status: schedfmt.Status(tc.Status), StatusCode: tc.Status,
			Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: http.Header{}, Body: http.NoBody,
		}
	}
	retry, reason, delay, panicked := callClassifier(c, resp, tc.Err)
	if panicked != nil {
		return "panic: " + schedfmt.Cell(fmt.Sprint(panicked), 40), "panicked"
	}
	got = Decision{Retry: retry, Reason: reason}.String()
	if c.decisions && retry {
		got += " (" + schedfmt.Duration(delay) + ")"
	}
	var wrongs []string
	if retry != tc.Retry {
		wrongs = append(wrongs, "wrong decision")
	}
	if tc.Reason != "" && reason != tc.Reason {
		wrongs = append(wrongs, "wrong reason")
	}
	switch {
	case c.decisions && retry && delay < 0:
		wrongs = append(wrongs, "negative delay")
	case c.decisions && retry && delay < tc.MinDelay:
		wrongs = append(wrongs, "delay under "+schedfmt.Duration(tc.MinDelay))
	}
	return got, strings.Join(wrongs, ", ")
}

func callClassifier(c classifier, resp *http.Response, err error) (retry bool, reason string, delay time.Duration, panicked any) {
	defer func() {
		if r := recover(); r != nil {
			panicked = r
		}
	}()
	retry, reason, delay = c.call(resp, err)
	return retry, reason, delay, nil
}

// caseName labels a case: its Name, else its status and error.
func caseName(tc ClassifyCase) string {
	if tc.Name != "" {
		return schedfmt.Cell(tc.Name, 40)
	}
	var parts []string
	if tc.Status != 0 {
		parts = append(parts, schedfmt.Status(tc.Status))
	}
	if tc.Err != nil {
		parts = append(parts, schedfmt.Cell(tc.Err.Error(), 40))
	}
	if len(parts) == 0 {
		return "nil error"
	}
	return strings.Join(parts, ", ")
}

// wantText is what a case wants, in the form of the got column.
func wantText(c classifier, tc ClassifyCase) string {
	s := Decision{Retry: tc.Retry, Reason: tc.Reason}.String()
	if c.decisions && tc.Retry && tc.MinDelay > 0 {
		s += " (>= " + schedfmt.Duration(tc.MinDelay) + ")"
	}
	return s
}

// AssertClassifier is [CheckClassifier] reported through t.Errorf. It
// returns whether every case passed.
func AssertClassifier[C ~func(error) bool | ~func(error) (bool, string) | ~func(error) Decision |
	~func(*http.Response, error) bool | ~func(context.Context, *http.Response, error) (bool, error)](t TestingT, classify C, cases ...ClassifyCase) bool {
	t.Helper()
	return report(t, CheckClassifier(classify, cases...))
}
