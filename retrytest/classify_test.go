package retrytest_test

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/retrytest"
)

// Errors of seed 000's classification table.
type httpError struct{ status int }

func (e httpError) Error() string { return fmt.Sprintf("HTTP %d", e.status) }

type rateLimited struct{ retryAfter time.Duration } // 0: no header

func (e rateLimited) Error() string {
	if e.retryAfter == 0 {
		return "429 without Retry-After"
	}
	return fmt.Sprintf("429, Retry-After %s", e.retryAfter)
}

var (
	errConnectTimeout = errors.New("connect timeout")
	errCertExpired    = x509.CertificateInvalidError{Reason: x509.Expired, Detail: "expired"}
)

// seedTable is seed 000's step 4 table, in Go.
var seedTable = []retrytest.ClassifyCase{
	{Err: httpError{500}, Retry: true, Reason: "backoff"},
	{Err: httpError{502}, Retry: true, Reason: "backoff"},
	{Err: httpError{503}, Retry: true, Reason: "backoff"},
	{Err: httpError{408}, Retry: true, Reason: "backoff"},
	{Err: rateLimited{120 * time.Second}, Retry: true, Reason: "retry-after", MinDelay: 120 * time.Second},
	{Err: rateLimited{}, Retry: true, Reason: "backoff", MinDelay: time.Nanosecond},
	{Err: httpError{400}, Reason: "permanent"},
	{Err: httpError{404}, Reason: "permanent"},
	{Err: httpError{410}, Reason: "permanent"},
	{Err: errConnectTimeout, Retry: true, Reason: "backoff"},
	{Err: errCertExpired, Reason: "permanent"},
}

// classifyDecide is seed 000's policy with the classification. zeroFor429 brings
// back its third production bug: a 429 without Retry-After retried at once.
func classifyDecide(attempt int, err error, rng *rand.Rand, zeroFor429 bool) retrytest.Decision {
	var he httpError
	if errors.As(err, &he) && he.status >= 400 && he.status < 500 && he.status != 408 {
		return retrytest.Decision{Reason: "permanent"}
	}
	var ce x509.CertificateInvalidError
	if errors.As(err, &ce) {
		return retrytest.Decision{Reason: "permanent"}
	}
	var rl rateLimited
	if errors.As(err, &rl) {
		if rl.retryAfter > 0 {
			return retrytest.Decision{Retry: true, Delay: max(rl.retryAfter, 5*time.Second), Reason: "retry-after"}
		}
		if zeroFor429 {
			return retrytest.Decision{Retry: true, Reason: "backoff"}
		}
	}
	ceiling := min(time.Hour, 5*time.Second<<attempt)
	return retrytest.Decision{Retry: true, Delay: time.Duration(rng.Float64() * float64(ceiling)), Reason: "backoff"}
}

func TestClassifierSeedTable(t *testing.T) {
	rng := rand.New(constSource(1 << 52)) // Float64 = 0.5
	good := func(err error) retrytest.Decision { return classifyDecide(0, err, rng, false) }
	retrytest.AssertClassifier(t, good, seedTable...)

	buggy := func(err error) retrytest.Decision { return classifyDecide(0, err, rng, true) }
	err := retrytest.CheckClassifier(buggy, seedTable...)
	if err == nil {
		t.Fatal("CheckClassifier(buggy) = nil, want the zero-delay 429 caught")
	}
	golden.Check(t, "harness_classify_seed_bug", err.Error()+"\n")
}

// CheckRetry is go-retryablehttp's classifier type: a named func type.
type CheckRetry func(ctx context.Context, resp *http.Response, err error) (bool, error)

func TestClassifierShapes(t *testing.T) {
	retryOn5xx := func(resp *http.Response, err error) bool { return err != nil || resp.StatusCode >= 500 }
	var checkRetry CheckRetry = func(_ context.Context, resp *http.Response, err error) (bool, error) {
		if err != nil {
			return true, nil
		}
		if resp.StatusCode == 501 {
			return false, fmt.Errorf("unexpected HTTP status %s", resp.Status)
		}
		return resp.StatusCode == 429 || resp.StatusCode >= 500, nil
	}
	type ErrorPredicate func(error) bool
	for _, tc := range []struct {
		name  string
		check func(t retrytest.TestingT) bool
	}{
		{"func(error) bool", func(t retrytest.TestingT) bool {
			return retrytest.AssertClassifier(t, func(err error) bool { return !errors.Is(err, context.Canceled) },
				retrytest.ClassifyCase{Err: errConnectTimeout, Retry: true}, retrytest.ClassifyCase{Err: context.Canceled})
		}},
		{"named func(error) bool", func(t retrytest.TestingT) bool {
			return retrytest.AssertClassifier(t, ErrorPredicate(func(err error) bool { return true }),
				retrytest.ClassifyCase{Err: errConnectTimeout, Retry: true})
		}},
		{"func(error) (bool, string)", func(t retrytest.TestingT) bool {
			return retrytest.AssertClassifier(t, func(err error) (bool, string) { return false, "permanent" },
				retrytest.ClassifyCase{Err: errCertExpired, Reason: "permanent"})
		}},
		{"func(*http.Response, error) bool", func(t retrytest.TestingT) bool {
			return retrytest.AssertClassifier(t, retryOn5xx,
				retrytest.ClassifyCase{Status: 503, Retry: true}, retrytest.ClassifyCase{Status: 404}, retrytest.ClassifyCase{Err: errConnectTimeout, Retry: true})
		}},
		{"CheckRetry", func(t retrytest.TestingT) bool {
			return retrytest.AssertClassifier(t, checkRetry,
				retrytest.ClassifyCase{Status: 429, Retry: true}, retrytest.ClassifyCase{Status: 503, Retry: true}, retrytest.ClassifyCase{Status: 400},
				retrytest.ClassifyCase{Name: "not implemented", Status: 501, Reason: "unexpected HTTP status 501 Not Implemented"})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !tc.check(t) {
				t.Errorf("AssertClassifier(%s) = false, want true", tc.name)
			}
		})
	}
}

func TestClassifierFailureText(t *testing.T) {
	classify := func(resp *http.Response, err error) bool {
		if err != nil && strings.Contains(err.Error(), "panic") {
			panic("classifier bug")
		}
		return err != nil || resp.StatusCode >= 400 // bug: retries 4xx
	}
	cases := []retrytest.ClassifyCase{
		{Status: 503, Retry: true},
		{Status: 429, Retry: true},
		{Status: 404},
		{Name: "a very long case name that the table has to cut short", Status: 400},
		{Err: errors.New("panic please\nsecond line"), Retry: true},
	}
	err := retrytest.CheckClassifier(classify, cases...)
	if err == nil {
		t.Fatal("CheckClassifier = nil, want an error")
	}
	golden.Check(t, "harness_classify_wrong", err.Error()+"\n")
	f := run(func(t retrytest.TestingT) { retrytest.AssertClassifier(t, classify, cases...) })
	if f.FailedNow || len(f.Errors) != 1 || f.Errors[0] != err.Error() {
		t.Errorf("AssertClassifier: errors %q, FailNow %v; want the Check text, no FailNow", f.Errors, f.FailedNow)
	}
}

func TestClassifierMisuse(t *testing.T) {
	byErr := func(error) bool { return true }
	byReason := func(error) (bool, string) { return true, "" }
	var nilFunc func(error) bool
	byResponse := func(*http.Response, error) bool { return true }
	var msgs []string
	// A value of another shape does not compile; these inputs do.
	for _, tc := range []struct {
		name  string
		check func() error
	}{
		{"nil func", func() error { return retrytest.CheckClassifier(nilFunc, retrytest.ClassifyCase{}) }},
		{"no cases", func() error { return retrytest.CheckClassifier(byErr) }},
		{"status for an error classifier", func() error { return retrytest.CheckClassifier(byErr, retrytest.ClassifyCase{Status: 503}) }},
		{"bad status", func() error { return retrytest.CheckClassifier(byResponse, retrytest.ClassifyCase{Status: 42}) }},
		{"reason without reasons", func() error {
			return retrytest.CheckClassifier(byErr, retrytest.ClassifyCase{Err: errConnectTimeout, Retry: true, Reason: "backoff"})
		}},
		{"negative MinDelay", func() error {
			return retrytest.CheckClassifier(byReason, retrytest.ClassifyCase{Retry: true, MinDelay: -time.Second})
		}},
	} {
		err := tc.check()
		if err == nil {
			t.Errorf("%s: CheckClassifier = nil, want an input error", tc.name)
			continue
		}
		msgs = append(msgs, err.Error())
	}
	golden.Check(t, "harness_classify_misuse", strings.Join(msgs, "\n")+"\n")
}

// TestClassifierEveryWrongAspect: a row's note names every aspect the
// classifier got wrong, not only the first.
func TestClassifierEveryWrongAspect(t *testing.T) {
	errPermanent, errLimited, errSkewed, errFine := errors.New("400 Bad Request"), errors.New("429 Retry-After: 120"),
		errors.New("503, clock skew"), errors.New("503 Service Unavailable")
	classify := func(err error) retrytest.Decision {
		switch err {
		case errPermanent:
			return retrytest.Decision{Retry: true, Delay: time.Second, Reason: "backoff"}
		case errLimited:
			return retrytest.Decision{Retry: true, Delay: 5 * time.Second, Reason: "backoff"}
		case errSkewed:
			return retrytest.Decision{Retry: true, Delay: -time.Second, Reason: "backoff"}
		}
		return retrytest.Decision{Retry: true, Delay: time.Second, Reason: "backoff"}
	}
	err := retrytest.CheckClassifier(classify,
		retrytest.ClassifyCase{Err: errPermanent, Reason: "permanent"},
		retrytest.ClassifyCase{Err: errLimited, Retry: true, Reason: "retry-after", MinDelay: 2 * time.Minute},
		retrytest.ClassifyCase{Err: errSkewed, Retry: true, Reason: "backoff", MinDelay: time.Second},
		retrytest.ClassifyCase{Err: errFine, Retry: true, Reason: "backoff"},
	)
	if err == nil {
		t.Fatal("CheckClassifier = nil, want three wrong rows")
	}
	golden.Check(t, "harness_classify_every_aspect", err.Error()+"\n")
}
