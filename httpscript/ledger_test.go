package httpscript_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/internal/faket"
	"github.com/retrykit/retrykit/internal/golden"
)

func keyed(key string) *http.Request {
	r, _ := http.NewRequest(http.MethodPost, "https://api.example.com/v1/charges", nil)
	if key != "" {
		r.Header.Set("Idempotency-Key", key)
	}
	return r
}

func TestLedgerApply(t *testing.T) {
	l := httpscript.NewLedger()
	for _, tc := range []struct {
		key  string
		want bool
	}{
		{"k1", true}, {"k1", false}, {"", true}, {"k2", true}, {"k1", false}, {"", true},
	} {
		if got := l.Apply(keyed(tc.key)); got != tc.want {
			t.Errorf("Apply(key %q) = %v, want %v", tc.key, got, tc.want)
		}
	}
	if got, want := l.Applied(), 4; got != want {
		t.Errorf("Applied() = %d, want %d", got, want)
	}
	if got, want := l.Duplicates(), 2; got != want {
		t.Errorf("Duplicates() = %d, want %d", got, want)
	}
	want := []httpscript.LedgerEntry{{Key: "k1", Requests: 3}, {Key: "", Requests: 1}, {Key: "k2", Requests: 1}, {Key: "", Requests: 1}}
	got := l.Entries()
	if len(got) != len(want) {
		t.Fatalf("Entries() = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Entries()[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
	got[0].Requests = 99
	if l.Entries()[0].Requests != 3 {
		t.Errorf("changing Entries() changed the ledger")
	}
	golden.Check(t, "harness_ledger_string", l.String()+"\n")
}

func TestLedgerConcurrentUse(t *testing.T) {
	l := httpscript.NewLedger()
	var wg sync.WaitGroup
	applied := make(chan bool, 100)
	for range 100 {
		wg.Go(func() { applied <- l.ApplyKey("once") })
	}
	wg.Wait()
	close(applied)
	n := 0
	for a := range applied {
		if a {
			n++
		}
	}
	if n != 1 || l.Duplicates() != 99 {
		t.Errorf("100 concurrent ApplyKey(once): applied %d times, %d duplicates, want 1 and 99", n, l.Duplicates())
	}
	l.AssertExactlyOnce(t)
}

// A key func reading the body, handed a readable body by the transport.
func TestLedgerKeyFromBody(t *testing.T) {
	l := httpscript.NewLedgerFunc(func(r *http.Request) string {
		var v struct{ RequestID string }
		json.NewDecoder(r.Body).Decode(&v)
		return v.RequestID
	})
	tr := httpscript.NewTransport(t, httpscript.Respond(503).Times(2), httpscript.Respond(200).Always()).WithLedger(l)
	for range 3 {
		send(tr, http.MethodPut, "https://api.example.com/v1/orders/1", `{"RequestID":"r-17"}`)
	}
	send(tr, http.MethodGet, "https://api.example.com/v1/orders/1", "") // safe: not presented
	l.AssertExactlyOnce(t)
	if got := l.Entries(); len(got) != 1 || got[0] != (httpscript.LedgerEntry{Key: "r-17", Requests: 3}) {
		t.Errorf("Entries() = %+v, want one key r-17 with 3 requests", got)
	}
}

func TestCheckExactlyOnce(t *testing.T) {
	for _, tc := range []struct {
		name string
		keys []string
		ok   bool
	}{
		{"one key", []string{"k"}, true},
		{"one key retried", []string{"k", "k", "k"}, true},
		{"one keyless request", []string{""}, true},
		{"nothing applied", nil, false},
		{"two keys", []string{"k1", "k2"}, false},
		{"keyless retried", []string{"", ""}, false},
		{"key and keyless", []string{"k", "", "k"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := httpscript.NewLedger()
			for _, k := range tc.keys {
				l.ApplyKey(k)
			}
			err := l.CheckExactlyOnce()
			if (err == nil) != tc.ok {
				t.Fatalf("CheckExactlyOnce = %v, want ok %v", err, tc.ok)
			}
			f := run(func(t fakeclock.FixtureT) { l.AssertExactlyOnce(t) })
			if f.FailedNow || (len(f.Errors) == 0) == !tc.ok {
				t.Errorf("AssertExactlyOnce: errors %q, FailNow %v; want a failure %v, no FailNow", f.Errors, f.FailedNow, !tc.ok)
			}
			if !tc.ok {
				golden.Check(t, "harness_ledger_"+strings.ReplaceAll(tc.name, " ", "_"), err.Error()+"\n")
				if f.Errors[0] != err.Error() {
					t.Errorf("Require reported %q, want the Check text", f.Errors[0])
				}
			}
		})
	}
}

func TestLedgerMisuse(t *testing.T) {
	for _, tc := range []struct {
		name string
		fn   func()
		want string
	}{
		{"nil key func", func() { httpscript.NewLedgerFunc(nil) }, "httpscript: NewLedgerFunc: nil key func; use NewLedger to key by the Idempotency-Key header"},
		{"nil request", func() { httpscript.NewLedger().Apply(nil) }, "httpscript: Ledger.Apply: nil request"},
	} {
		if got := faket.PanicText(tc.fn); got != tc.want {
			t.Errorf("%s: panic %q, want %q", tc.name, got, tc.want)
		}
	}
}
