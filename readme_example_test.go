package retrykit_test

import (
	"context"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/onsi/gomega"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/matchers"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// The README's example: keep the blocks of README.md copied from this file
// (TestREADMEBlocksAreCompiled checks it).

// fetch is the code under test: it retries a 429 with a delay that starts
// at 500ms and doubles, on whatever clock it is given.
func fetch(ctx context.Context, client *http.Client, clk clockwork.Clock, url string) (*http.Response, error) {
	delay := 500 * time.Millisecond
	for attempt := 1; ; attempt++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		resp, err := client.Do(req)
		if err != nil || resp.StatusCode != http.StatusTooManyRequests || attempt == 5 {
			return resp, err
		}
		resp.Body.Close()
		if err := clockctx.Sleep(ctx, clk, delay); err != nil {
			return nil, err // ctx ended during the wait
		}
		delay *= 2
	}
}

func TestFetchRetriesAtExactly500msThen1s(t *testing.T) {
	clk := fakeclock.New(t)
	tr := httpscript.NewTransport(t,
		httpscript.Respond(429).Times(2),
		httpscript.Respond(200),
	).WithClock(clk)
	go fetch(t.Context(), tr.Client(), clk, "https://api.example.com/items")

	g := gomega.NewWithT(t)
	clk.Step(0)
	g.Expect(tr).To(matchers.HaveAttempts(1)) // no sleep before the first attempt
	clk.Step(499 * time.Millisecond)
	g.Expect(tr).To(matchers.HaveAttempts(1)) // nothing at 499ms
	clk.Step(time.Millisecond)
	g.Expect(tr).To(matchers.HaveAttempts(2)) // the retry at exactly 500ms
	clk.Step(time.Second)
	g.Expect(tr).To(matchers.HaveAttemptsAt(0, 500*time.Millisecond, 1500*time.Millisecond))
}

// The README shows the failure a loop that sleeps before its first attempt
// gets from the test above; TestREADMEFailureText keeps that text current.
func fetchSleepingFirst(ctx context.Context, client *http.Client, clk clockwork.Clock, url string) (*http.Response, error) {
	if err := clockctx.Sleep(ctx, clk, time.Millisecond); err != nil {
		return nil, err
	}
	return fetch(ctx, client, clk, url)
}

func TestREADMEFailureText(t *testing.T) {
	clk := fakeclock.New(t)
	tr := httpscript.NewTransport(t, httpscript.Respond(200)).WithClock(clk)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel() // ends the loop's wait, and clockctx.Sleep stops its timer: no leak
	go fetchSleepingFirst(ctx, tr.Client(), clk, "https://api.example.com/items")

	var msg string
	g := gomega.NewGomega(func(message string, _ ...int) { msg = message })
	clk.Step(0)
	g.Expect(tr).To(matchers.HaveAttempts(1))
	if msg == "" {
		t.Fatal("HaveAttempts(1) passed on a loop that sleeps before its first attempt")
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```\n"+msg+"\n```\n") {
		t.Errorf("README.md does not show the failure text verbatim; it is now:\n%s", msg)
	}
}

// The whole contract of fetch, in one call: what it claims, and the few
// lines that hand it the suite's transport and clock.
func TestFetchConforms(t *testing.T) {
	spec := conformance.Spec{
		Policy:    retrytest.Policy{First: 500 * time.Millisecond, Attempts: 5}, // doubling, no cap, no jitter
		Retryable: []int{429},                                                   // 429s only; any other status is returned
		Permanent: []int{400, 404, 500, 503},
	}
	conformance.TestClient(t, spec, func(s conformance.Seams) conformance.Do {
		return func(req *http.Request) (*http.Response, error) {
			return fetch(req.Context(), &http.Client{Transport: s.Transport}, s.Clock, req.URL.String())
		}
	}, conformance.Waive("ConnectionErrors", "fetch retries 429s only, by design"))
}

// fetchConformance is TestFetchConforms without its waiver, as a report:
// the README shows its one failure, and TestREADMEConformanceFailure keeps
// that text current.
func fetchConformance(t *testing.T) *conformance.Report {
	t.Helper()
	spec := conformance.Spec{Policy: retrytest.Policy{First: 500 * time.Millisecond, Attempts: 5}, Retryable: []int{429}, Permanent: []int{400, 404, 500, 503}}
	r, err := conformance.CheckClient(spec, func(s conformance.Seams) conformance.Do {
		return func(req *http.Request) (*http.Response, error) {
			return fetch(req.Context(), &http.Client{Transport: s.Transport}, s.Clock, req.URL.String())
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestREADMEConformanceFailure(t *testing.T) {
	r := fetchConformance(t)
	var msgs []string
	for _, res := range r.Results {
		if res.Property != "ConnectionErrors" || res.Verdict != conformance.Failed {
			continue
		}
		for _, c := range res.Cases {
			if c.Verdict == conformance.Failed {
				msgs = append(msgs, "--- FAIL: TestFetchConforms/ConnectionErrors/"+c.Name+"\n"+c.Message)
			}
		}
	}
	msg := strings.Join(msgs, "\n")
	if msg == "" {
		t.Fatalf("fetch passes ConnectionErrors, but it returns a connection reset at once:\n%s", r)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```\n"+msg+"\n```\n") {
		t.Errorf("README.md does not show the conformance failure verbatim; it is now:\n%s", msg)
	}
}
