package httpscript_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retryafter"
	"github.com/retrykit/retrykit/retrytest"
)

// send makes one request through rt and returns the status (0 on error),
// the body and the error.
func send(rt http.RoundTripper, method, url, body string) (int, string, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return 0, "", err
	}
	resp, err := (&http.Client{Transport: rt}).Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), nil
}

func TestTransportServesScriptInOrder(t *testing.T) {
	tr := httpscript.NewTransport(t,
		httpscript.Respond(429).RetryAfter(7*time.Second),
		httpscript.Respond(503).Times(2),
		httpscript.Respond(200).Body("ok").Always(),
	)
	want := []int{429, 503, 503, 200, 200, 200}
	for i, w := range want {
		code, body, err := send(tr, http.MethodGet, "https://api.example.com/x", "")
		if err != nil || code != w {
			t.Errorf("request %d = %d, %v, want %d, nil", i+1, code, err, w)
		}
		if w == 200 && body != "ok" {
			t.Errorf("request %d body = %q, want %q", i+1, body, "ok")
		}
	}
	reqs := tr.Requests()
	if len(reqs) != len(want) {
		t.Fatalf("len(Requests()) = %d, want %d", len(reqs), len(want))
	}
	wantResults := []string{"429 Too Many Requests", "503 Service Unavailable", "503 Service Unavailable", "200 OK", "200 OK", "200 OK"}
	wantSteps := []int{1, 2, 2, 3, 3, 3}
	for i, r := range reqs {
		if r.Attempt != i+1 || r.Result != wantResults[i] || r.Step != wantSteps[i] || r.Route != "" {
			t.Errorf("Requests()[%d] = attempt %d, step %d, route %q, result %q, want %d, %d, \"\", %q",
				i, r.Attempt, r.Step, r.Route, r.Result, i+1, wantSteps[i], wantResults[i])
		}
	}
	// The attempts' results add the wait the reply asked for.
	wantResults[0] = "429 Too Many Requests, Retry-After: 7 (asks to wait 7s)"
	for i, a := range attemptsOf(tr) {
		if a.Index != i+1 || a.Result != wantResults[i] {
			t.Errorf("Attempts()[%d] = %+v, want index %d, result %q", i, a, i+1, wantResults[i])
		}
	}
}

func TestTransportResponse(t *testing.T) {
	tr := httpscript.NewTransport(t,
		httpscript.Respond(429).RetryAfter(1500*time.Millisecond).Header("X-Req", "a").Header("X-Req", "b").Body("slow down").Times(2),
	)
	req, _ := http.NewRequest(http.MethodPost, "https://api.example.com/x", nil)
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.Status != "429 Too Many Requests" || resp.StatusCode != 429 || resp.Proto != "HTTP/1.1" ||
		resp.Request != req || resp.ContentLength != 9 || string(b) != "slow down" {
		t.Errorf("RoundTrip = %q %d %s request=%v len=%d body %q, want 429 Too Many Requests, HTTP/1.1, the request, 9, %q",
			resp.Status, resp.StatusCode, resp.Proto, resp.Request == req, resp.ContentLength, b, "slow down")
	}
	if got := resp.Header.Get("Retry-After"); got != "2" {
		t.Errorf("Retry-After = %q, want %q (1.5s rounded up)", got, "2")
	}
	if got := resp.Header.Values("X-Req"); fmt.Sprint(got) != "[a b]" {
		t.Errorf("X-Req = %q, want [a b]", got)
	}
	resp.Header.Set("Retry-After", "changed")
	head, _ := http.NewRequest(http.MethodHead, "https://api.example.com/x", nil)
	resp, err = tr.RoundTrip(head)
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Header.Get("Retry-After"); got != "2" {
		t.Errorf("second response's Retry-After = %q, want %q: each response gets its own header", got, "2")
	}
	if resp.Body != http.NoBody {
		t.Errorf("HEAD response body = %v, want http.NoBody", resp.Body)
	}
}

func TestTransportRecordsRequests(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := httpscript.NewTransport(t, httpscript.Respond(503), httpscript.Respond(201))
		req, _ := http.NewRequest(http.MethodPost, "https://api.example.com/v1/charges?x=1", strings.NewReader(`{"amount":100}`))
		req.Header.Set("Idempotency-Key", "k1")
		if _, err := tr.RoundTrip(req); err != nil {
			t.Fatal(err)
		}
		time.Sleep(1500 * time.Millisecond)
		// A client that resends the consumed body: the second body is empty.
		if _, err := tr.RoundTrip(req); err != nil {
			t.Fatal(err)
		}
		reqs := tr.Requests()
		r := reqs[0]
		if r.Method != "POST" || r.URL.String() != "https://api.example.com/v1/charges?x=1" ||
			r.Header.Get("Idempotency-Key") != "k1" || string(r.Body) != `{"amount":100}` || !r.At.Equal(fakeclock.Epoch) {
			t.Errorf("Requests()[0] = %s %s key %q body %q at %v, want the request as sent at the bubble's start",
				r.Method, r.URL, r.Header.Get("Idempotency-Key"), r.Body, r.At)
		}
		if b, _ := io.ReadAll(r.BodyReader()); string(b) != `{"amount":100}` {
			t.Errorf("BodyReader() read %q, want the body", b)
		}
		if got := reqs[1].Body; len(got) != 0 {
			t.Errorf("Requests()[1].Body = %q, want empty: the client resent a consumed body", got)
		}
		if got := reqs[1].At.Sub(reqs[0].At); got != 1500*time.Millisecond {
			t.Errorf("gap = %v, want 1.5s", got)
		}
		// Accessors return copies.
		reqs[0].Header.Set("Idempotency-Key", "changed")
		reqs[0].URL.Path = "/changed"
		reqs[0].Body[0] = 'X'
		again := tr.Requests()[0]
		if again.Header.Get("Idempotency-Key") != "k1" || again.URL.Path != "/v1/charges" || again.Body[0] != '{' {
			t.Errorf("changing a returned Request changed the transport's record")
		}
		retrytest.AssertAttemptsAt(t, tr, 0, 1500*time.Millisecond)
	})
}

func TestTransportRoutes(t *testing.T) {
	tr := httpscript.NewTransport(t, httpscript.Respond(404).Always()).
		Route("POST /v1/charges", httpscript.Respond(503), httpscript.Respond(201)).
		Route("GET /v1/items/{id}", httpscript.Respond(200).Always()).
		Route("status.example.com/", httpscript.Respond(204).Always())
	for _, tc := range []struct {
		method, url string
		want        int
		route       string
	}{
		{"POST", "https://api.example.com/v1/charges", 503, "POST /v1/charges"},
		{"GET", "https://api.example.com/v1/charges", 404, ""},
		{"GET", "https://api.example.com/v1/items/7", 200, "GET /v1/items/{id}"},
		{"HEAD", "https://api.example.com/v1/items/8", 200, "GET /v1/items/{id}"},
		{"POST", "https://api.example.com/v1/charges", 201, "POST /v1/charges"},
		{"GET", "https://status.example.com/health", 204, "status.example.com/"},
		{"GET", "https://api.example.com/v1/items/7/", 404, ""},
		{"GET", "https://api.example.com/elsewhere", 404, ""},
	} {
		code, _, err := send(tr, tc.method, tc.url, "")
		if err != nil || code != tc.want {
			t.Errorf("%s %s = %d, %v, want %d, nil", tc.method, tc.url, code, err, tc.want)
		}
		reqs := tr.Requests()
		if got := reqs[len(reqs)-1].Route; got != tc.route {
			t.Errorf("%s %s answered by route %q, want %q", tc.method, tc.url, got, tc.route)
		}
	}
}

func TestTransportErrorReplies(t *testing.T) {
	tr := httpscript.NewTransport(t, httpscript.ConnReset(), httpscript.IOTimeout(), httpscript.Fail(errors.New("boom")))
	_, _, err := send(tr, "GET", "https://api.example.com/x", "")
	if !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("ConnReset: err = %v, want one wrapping syscall.ECONNRESET", err)
	}
	_, _, err = send(tr, "GET", "https://api.example.com/x", "")
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Errorf("IOTimeout: err = %v, want a net.Error whose Timeout() is true", err)
	}
	_, _, err = send(tr, "GET", "https://api.example.com/x", "")
	if err == nil || !strings.HasSuffix(err.Error(), ": boom") {
		t.Errorf("Fail(boom): err = %v, want it wrapped by the client", err)
	}
	got := fmt.Sprint(attemptsOf(tr)[0].Result, " | ", attemptsOf(tr)[1].Result, " | ", attemptsOf(tr)[2].Result)
	if want := "read tcp: read: connection reset by peer | read tcp: i/o timeout | boom"; got != want {
		t.Errorf("results = %q, want %q", got, want)
	}
}

// A context that has ended before the request is sent: the request never
// reaches the server, so it is not recorded and uses no reply.
func TestTransportEndedContext(t *testing.T) {
	tr := httpscript.NewTransport(t, httpscript.Respond(200))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", "https://api.example.com/x", nil)
	if _, err := tr.RoundTrip(req); !errors.Is(err, context.Canceled) {
		t.Errorf("RoundTrip with a canceled context = %v, want context.Canceled", err)
	}
	if n := len(tr.Requests()); n != 0 {
		t.Errorf("len(Requests()) = %d, want 0", n)
	}
	if code, _, err := send(tr, "GET", "https://api.example.com/x", ""); code != 200 || err != nil {
		t.Errorf("next request = %d, %v, want 200, nil: the reply is still there", code, err)
	}
}

// Latency: the reply comes after the delay on the bubble's clock, or the
// request's context ends first and the transport returns its error.
func TestTransportLatency(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := httpscript.NewTransport(t, httpscript.Respond(200).Latency(3*time.Second).Always())
		start := time.Now()
		if code, _, err := send(tr, "GET", "https://api.example.com/x", ""); code != 200 || err != nil {
			t.Errorf("send = %d, %v, want 200, nil", code, err)
		}
		if got := time.Since(start); got != 3*time.Second {
			t.Errorf("reply after %v, want 3s", got)
		}
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", "https://api.example.com/x", nil)
		start = time.Now()
		if _, err := tr.RoundTrip(req); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("RoundTrip = %v, want context.DeadlineExceeded", err)
		}
		if got := time.Since(start); got != time.Second {
			t.Errorf("timed out after %v, want 1s", got)
		}
		if got := tr.Requests()[1].Result; got != "context deadline exceeded" {
			t.Errorf("Result = %q, want the context's error", got)
		}
	})
}

// Latency on a fake clock outside a bubble.
func TestTransportLatencyOnFakeClock(t *testing.T) {
	clk := fakeclock.New(t)
	tr := httpscript.NewTransport(t, httpscript.Respond(200).Latency(2*time.Second)).WithClock(clk)
	done := make(chan int, 1)
	go func() {
		code, _, _ := send(tr, "GET", "https://api.example.com/x", "")
		done <- code
	}()
	if err := clk.WaitForTimers(t.Context(), 1); err != nil { // the request is in flight
		t.Fatal(err)
	}
	clk.Step(1999 * time.Millisecond)
	select {
	case code := <-done:
		t.Fatalf("reply before 2s: %d", code)
	default:
	}
	clk.Step(time.Millisecond)
	if code := <-done; code != 200 {
		t.Errorf("code = %d, want 200", code)
	}
}

func TestTransportConcurrentUse(t *testing.T) {
	const n = 64
	tr := httpscript.NewTransport(t, httpscript.Respond(503).Times(n/2), httpscript.Respond(200).Always())
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			send(tr, "GET", "https://api.example.com/x", "")
			_ = attemptsOf(tr)
			_ = tr.String()
		})
	}
	wg.Wait()
	count := map[string]int{}
	for i, r := range tr.Requests() {
		if r.Attempt != i+1 {
			t.Errorf("Requests()[%d].Attempt = %d, want %d", i, r.Attempt, i+1)
		}
		count[r.Result]++
	}
	if count["503 Service Unavailable"] != n/2 || count["200 OK"] != n/2 {
		t.Errorf("results = %v, want %d of each", count, n/2)
	}
}

// An exhausted script fails the test with the request and the script, and
// the client gets an error at once.
func TestTransportUnexpectedRequest(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build func(t fakeclock.FixtureT) *httpscript.Transport
		sends int // requests before the unexpected one
	}{
		{"default script exhausted", func(t fakeclock.FixtureT) *httpscript.Transport {
			return httpscript.NewTransport(t, httpscript.Respond(429).RetryAfter(7*time.Second), httpscript.Respond(200))
		}, 2},
		{"route exhausted", func(t fakeclock.FixtureT) *httpscript.Transport {
			return httpscript.NewTransport(t, httpscript.Respond(200).Always()).Route("POST /v1/x", httpscript.Respond(503).Times(2))
		}, 2},
		{"route with no replies", func(t fakeclock.FixtureT) *httpscript.Transport {
			return httpscript.NewTransport(t).Route("POST /v1/x")
		}, 0},
		{"no route matches", func(t fakeclock.FixtureT) *httpscript.Transport {
			return httpscript.NewTransport(t).Route("GET /v1/items/{id}", httpscript.Respond(200)).Route("DELETE /v1/items/{id}")
		}, 0},
		{"no script", func(t fakeclock.FixtureT) *httpscript.Transport { return httpscript.NewTransport(t) }, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ft := &fakeT{}
				tr := tc.build(ft)
				for range tc.sends {
					send(tr, "POST", "https://api.example.com/v1/x", "{}")
					time.Sleep(7 * time.Second)
				}
				_, _, err := send(tr, "POST", "https://api.example.com/v1/x", "{}")
				if !errors.Is(err, httpscript.ErrUnexpectedRequest) {
					t.Errorf("err = %v, want one wrapping ErrUnexpectedRequest", err)
				}
				if len(ft.Errors) != 1 {
					t.Fatalf("Errorf called %d times, want once: %q", len(ft.Errors), ft.Errors)
				}
				name := "harness_transport_unexpected_" + strings.ReplaceAll(tc.name, " ", "_")
				golden.Check(t, name, ft.Errors[0]+"\n---\n"+err.Error()+"\n")
			})
		})
	}
}

// Mistakes in building a script are reported at the call that receives
// them, one message each.
func TestTransportMisuse(t *testing.T) {
	ft := &fakeT{}
	tr := httpscript.NewTransport(ft,
		httpscript.Respond(42),
		httpscript.Respond(200).Times(0),
		httpscript.Respond(503).Times(-1),
		httpscript.Respond(429).RetryAfter(-time.Second),
		httpscript.Respond(429).RetryAfterDate(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), retryafter.IMFFixdate),
		httpscript.Respond(429).RetryAfterDate(time.Time{}, retryafter.DateForm(9)),
		httpscript.Respond(200).Latency(-time.Millisecond),
		httpscript.Respond(200).Header("", "x"),
		httpscript.ConnReset().Header("Retry-After", "1"),
		httpscript.IOTimeout().Body("x"),
		httpscript.Fail(nil),
		httpscript.Respond(200).Always(),
		httpscript.Respond(204),
	)
	tr.Route("GET /items/{id", httpscript.Respond(200))
	tr.Route("GET /dup", httpscript.Respond(200))
	tr.Route("GET /dup", httpscript.Respond(200))
	tr.Route("POST /ok", httpscript.Respond(200).Always(), httpscript.Respond(201))
	tr.WithClock(nil)
	tr.WithLedger(nil)
	golden.Check(t, "harness_transport_misuse", strings.Join(ft.Errors, "\n")+"\n")
	if ft.Helpers == 0 {
		t.Errorf("no call to Helper: misuse would be reported at the wrong line")
	}

	// The mistaken steps stay in the script without the mistaken call.
	if code, _, err := send(tr, "GET", "https://x/", ""); code != 42 || err != nil {
		t.Errorf("first reply = %d, %v, want 42, nil", code, err)
	}
	if _, _, err := send(tr, "GET", "https://x/", ""); err != nil {
		t.Errorf("second reply = %v, want the 200 served once", err)
	}

	defer func() {
		if r := recover(); r == nil || r != "httpscript: NewTransport: nil t (want the test's *testing.T, or any fakeclock.FixtureT)" {
			t.Errorf("NewTransport(nil) panicked with %v, want a message naming the nil t", r)
		}
	}()
	httpscript.NewTransport(nil)
}

func TestTransportString(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := httpscript.NewTransport(t, httpscript.Respond(503).Times(2), httpscript.Respond(200).Body(`{"ok":true}`)).
			Route("POST /v1/charges", httpscript.ConnReset(), httpscript.Respond(201).NoSideEffect().Latency(time.Second))
		send(tr, "GET", "https://api.example.com/v1/items", "")
		time.Sleep(500 * time.Millisecond)
		send(tr, "POST", "https://api.example.com/v1/charges", "{}")
		golden.Check(t, "harness_transport_string", tr.String()+"\n")
		if tr.GomegaString() != tr.String() {
			t.Errorf("GomegaString() != String()")
		}
	})
}

func TestReplyString(t *testing.T) {
	for _, tc := range []struct {
		reply httpscript.Reply
		want  string
	}{
		{httpscript.Respond(200), "200 OK"},
		{httpscript.Respond(299), "299"},
		{httpscript.Respond(429).RetryAfter(7 * time.Second).Body("slow down"), `429 Too Many Requests, Retry-After: 7, body "slow down"`},
		{httpscript.Respond(503).Header("b", "2").Header("a", "1"), "503 Service Unavailable, A: 1, B: 2"},
		{httpscript.Respond(200).Body(strings.Repeat("x", 30)), `200 OK, body "xxxxxxxxxxxxxxxxxxx…"`},
		// A quoted body is escaped once: "\n", not "\\n".
		{httpscript.Respond(400).Body("line 1\nline 2"), `400 Bad Request, body "line 1\nline 2"`},
		{httpscript.Respond(200).Header("X-Note", "a\tb"), `200 OK, X-Note: a\tb`},
		{httpscript.IOTimeout().Latency(time.Second), "error: read tcp: i/o timeout, after 1s"},
		{httpscript.Respond(429).NoSideEffect(), "429 Too Many Requests, no side effect"},
	} {
		if got := tc.reply.String(); got != tc.want {
			t.Errorf("Reply.String() = %q, want %q", got, tc.want)
		}
	}
	base := httpscript.Respond(429)
	a, b := base.Header("X", "a"), base.Header("X", "b")
	if a.String() == b.String() || base.String() != "429 Too Many Requests" {
		t.Errorf("Header changed a shared reply: base %q, a %q, b %q", base, a, b)
	}
}

func TestTransportCheckDone(t *testing.T) {
	tr := httpscript.NewTransport(t, httpscript.Respond(429).RetryAfter(7*time.Second), httpscript.Respond(200).Times(2)).
		Route("GET /v1/status", httpscript.Respond(204).Always()).
		Route("DELETE /v1/items/{id}")
	send(tr, "GET", "https://api.example.com/v1/chat", "")
	send(tr, "GET", "https://api.example.com/v1/chat", "")
	err := tr.CheckDone()
	if err == nil {
		t.Fatal("CheckDone = nil, want the unused replies")
	}
	golden.Check(t, "harness_script_not_done", err.Error()+"\n")
	f := run(func(t fakeclock.FixtureT) { tr.AssertDone(t) })
	if f.FailedNow || len(f.Errors) != 1 || f.Errors[0] != err.Error() {
		t.Errorf("AssertDone: errors %q, FailNow %v; want the Check text, no FailNow", f.Errors, f.FailedNow)
	}

	send(tr, "GET", "https://api.example.com/v1/chat", "")
	send(tr, "GET", "https://api.example.com/v1/status", "")
	send(tr, "GET", "https://api.example.com/v1/status", "")
	tr.AssertDone(t)

}

// TestTransportOrigin: the schedule of a transport made inside a bubble, or
// given a clock, starts then, so a wait before the first request is its
// delay and the checks catch it; made outside a bubble without a clock, it
// starts at the first request.
func TestTransportOrigin(t *testing.T) {
	const url = "https://api.example.com/x"
	sleepy := func(tr *httpscript.Transport, sleep func(time.Duration)) {
		sleep(time.Second)
		send(tr, "GET", url, "")
		sleep(2 * time.Second)
		send(tr, "GET", url, "")
	}
	want := []recorder.Attempt{
		{Index: 1, Delay: time.Second, At: time.Second, Result: "200 OK"},
		{Index: 2, Delay: 2 * time.Second, At: 3 * time.Second, Result: "200 OK"},
	}
	check := func(t *testing.T, tr *httpscript.Transport, want []recorder.Attempt) {
		t.Helper()
		if got := attemptsOf(tr); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("Attempts() = %+v, want %+v", got, want)
		}
	}
	t.Run("in a bubble", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			tr := httpscript.NewTransport(t, httpscript.Respond(200).Always())
			sleepy(tr, time.Sleep)
			check(t, tr, want)
			if err := retrytest.CheckAttemptsAt(tr, 0, 2*time.Second); err == nil {
				t.Errorf("CheckAttemptsAt(tr, 0, 2s) = nil, want the 1s wait before the first request caught")
			}
			if err := retrytest.CheckDelays(tr, 2*time.Second); err == nil || !strings.Contains(err.Error(), "waited 1s before the first attempt") {
				t.Errorf("CheckDelays(tr, 2s) = %v, want the wait before the first attempt flagged", err)
			}
		})
	})
	t.Run("on a fake clock", func(t *testing.T) {
		clk := fakeclock.New(t)
		clk.Advance(time.Hour) // the clock's time before WithClock does not count
		tr := httpscript.NewTransport(t, httpscript.Respond(200).Always()).WithClock(clk)
		sleepy(tr, clk.Advance)
		check(t, tr, want)
		if !strings.Contains(tr.String(), "1        +1s") {
			t.Errorf("String() does not show the first request at +1s:\n%s", tr)
		}
	})
	t.Run("outside a bubble, no clock", func(t *testing.T) {
		tr := httpscript.NewTransport(t, httpscript.Respond(200).Always())
		send(tr, "GET", url, "")
		if got := attemptsOf(tr); len(got) != 1 || got[0].At != 0 || got[0].Delay != 0 {
			t.Errorf("Attempts() = %+v, want one attempt at 0s", got)
		}
	})
}

// CheckBodiesClosed (issue 32, point 2): the body of every response a
// client got must be closed, retried ones included; the error names the
// requests whose bodies stayed open; a response without a body has none
// to close.
func TestCheckBodiesClosed(t *testing.T) {
	tr := httpscript.NewTransport(t,
		httpscript.Respond(503).Body(`{"error":"busy"}`),
		httpscript.Respond(503),
		httpscript.Respond(200).Body("ok"),
	)
	c := tr.Client()
	first, _ := c.Get("https://api.example.com/x")
	c.Get("https://api.example.com/x") // no body: nothing to close
	last, _ := c.Get("https://api.example.com/x")
	last.Body.Close()
	err := tr.CheckBodiesClosed()
	if err == nil || !strings.HasPrefix(err.Error(), "httpscript: 1 response body never closed: request 1 (503 Service Unavailable)\n") {
		t.Fatalf("CheckBodiesClosed = %v, want request 1's body named", err)
	}
	first.Body.Close()
	if err := tr.CheckBodiesClosed(); err != nil {
		t.Errorf("every body closed: %v", err)
	}
	if _, err := first.Body.Read(make([]byte, 1)); err == nil {
		t.Error("a read on a closed body succeeded")
	}
}
