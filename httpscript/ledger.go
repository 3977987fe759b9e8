package httpscript

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest"
)

// IdempotencyKeyHeader is the header field a [Ledger] made by [NewLedger]
// reads the key from (IETF draft-ietf-httpapi-idempotency-key-header;
// Stripe, Adyen and PayPal use the same name).
const IdempotencyKeyHeader = "Idempotency-Key"

// Ledger stands for the server side of a side effect — a charge, a sent
// message, a created record — and applies it once per idempotency key, the
// way a server that honours the key does. A request without a key is
// applied every time: the server cannot tell a retry from a new request.
// So a client that retries a POST applies it once only if it sends the same
// key on every attempt, and [Ledger.CheckExactlyOnce] says whether it did:
//
//	ledger := httpscript.NewLedger()
//	tr := httpscript.NewTransport(t, httpscript.Respond(503), httpscript.Respond(201)).WithLedger(ledger)
//	// ... the client posts a charge, retrying once ...
//	ledger.AssertExactlyOnce(t)
//
// Attach it to a [Transport] with [Transport.WithLedger], or call
// [Ledger.Apply] from a handler of your own. A Ledger is safe for concurrent
// use; its accessors return copies.
type Ledger struct {
	key func(*http.Request) string

	mu      sync.Mutex
	entries []LedgerEntry
	byKey   map[string]int // index into entries
}

// LedgerEntry is one key a [Ledger] saw, or one request without a key.
type LedgerEntry struct {
	// Key is the idempotency key, or "" for a request without one (each
	// such request is an entry of its own).
	Key string
	// Requests is how many requests carried the key: the first was
	// applied, the others were duplicates.
	Requests int
}

// NewLedger returns a Ledger keyed by the Idempotency-Key header field.
func NewLedger() *Ledger {
	return NewLedgerFunc(func(r *http.Request) string { return r.Header.Get(IdempotencyKeyHeader) })
}

// NewLedgerFunc returns a Ledger keyed by key, for APIs whose key is in
// another field or in the body (the Ledger's transport hands key a request
// whose body can be read). key returns "" for a request without a key.
// It panics if key is nil.
func NewLedgerFunc(key func(r *http.Request) string) *Ledger {
	if key == nil {
		panic("httpscript: NewLedgerFunc: nil key func; use NewLedger to key by the Idempotency-Key header")
	}
	return &Ledger{key: key, byKey: map[string]int{}}
}

// Apply records r and reports whether its side effect should run now:
// true for the first request with its key and for every request without a
// key, false for a duplicate. It panics if r is nil.
func (l *Ledger) Apply(r *http.Request) bool {
	if r == nil {
		panic("httpscript: Ledger.Apply: nil request")
	}
	return l.ApplyKey(l.key(r))
}

// ApplyKey is Apply for a side effect that is not an HTTP request, such as
// a queued message: it records key ("" for none) and reports whether the
// side effect should run now.
func (l *Ledger) ApplyKey(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if key != "" {
		if i, ok := l.byKey[key]; ok {
			l.entries[i].Requests++
			return false
		}
		l.byKey[key] = len(l.entries)
	}
	l.entries = append(l.entries, LedgerEntry{Key: key, Requests: 1})
	return true
}

// Applied returns how many times the side effect was applied: once per
// key, plus once per request without a key.
func (l *Ledger) Applied() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.entries)
}

// Duplicates returns how many requests repeated a key already applied.
func (l *Ledger) Duplicates() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, e := range l.entries {
		n += e.Requests - 1
	}
	return n
}

// Entries returns every key seen, and every request without a key, in the
// order they first arrived. The slice is a copy and is never nil.
func (l *Ledger) Entries() []LedgerEntry {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]LedgerEntry{}, l.entries...)
}

// String describes the ledger: a summary line and a table of its entries.
func (l *Ledger) String() string {
	return ledgerReport(l.Entries())
}

// GomegaString returns the same text as String.
func (l *Ledger) GomegaString() string { return l.String() }

// ledgerReport is the summary line and the table of entries, without a
// final newline: the text of String, and of CheckExactlyOnce after its
// summary.
func ledgerReport(entries []LedgerEntry) string {
	requests, dups := 0, 0
	for _, e := range entries {
		requests += e.Requests
		dups += e.Requests - 1
	}
	summary := fmt.Sprintf("ledger: %s, applied %s, %s", schedfmt.Count(requests, "request"), timesWord(len(entries)), schedfmt.Count(dups, "duplicate"))
	if len(entries) == 0 {
		return summary
	}
	tab := schedfmt.Grid{Header: []string{"key", "requests", "outcome"}, Indent: "  "}
	for _, e := range entries {
		key, outcome := "(none)", "applied"
		if e.Key != "" {
			key = strconv.Quote(schedfmt.Cut(e.Key, 40))
			if e.Requests > 1 {
				outcome = "applied once, " + schedfmt.Count(e.Requests-1, "duplicate") + " ignored"
			}
		}
		tab.Rows = append(tab.Rows, schedfmt.GridRow{Cells: []string{key, strconv.Itoa(e.Requests), outcome}})
	}
	return summary + "\n" + strings.TrimSuffix(tab.String(), "\n")
}

// timesWord returns "once", "twice" or "3 times".
func timesWord(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return strconv.Itoa(n) + " times"
}

// CheckExactlyOnce checks that the side effect l stands for was applied
// exactly once: one key (however many duplicates carried it), and no
// request without a key beside it. It returns nil or an error whose text
// lists every key with its request count, for example
//
//	httpscript: side effect applied 3 times, want exactly once: 3 requests carried 3 different keys
//	ledger: 3 requests, applied 3 times, 0 duplicates
//	    key          requests  outcome
//	    "charge-1a"  1         applied
//	    "charge-2b"  1         applied
//	    "charge-3c"  1         applied
func (l *Ledger) CheckExactlyOnce() error {
	entries := l.Entries()
	if len(entries) == 1 {
		return nil
	}
	keyed, keyless, requests := 0, 0, 0
	for _, e := range entries {
		requests += e.Requests
		if e.Key == "" {
			keyless++
		} else {
			keyed++
		}
	}
	var why string
	switch {
	case len(entries) == 0:
		why = "no request reached the ledger"
	case keyed == 0:
		why = schedfmt.Count(keyless, "request") + " carried no idempotency key"
	case keyless == 0:
		why = fmt.Sprintf("%s carried %d different keys", schedfmt.Count(requests, "request"), keyed)
	default:
		why = fmt.Sprintf("%s and %s without a key", schedfmt.Count(keyed, "key"), schedfmt.Count(keyless, "request"))
	}
	return fmt.Errorf("httpscript: side effect applied %s, want exactly once: %s\n%s",
		timesWord(len(entries)), why, ledgerReport(entries))
}

// AssertExactlyOnce is [Ledger.CheckExactlyOnce] reported through
// t.Errorf. It returns whether the check passed.
func (l *Ledger) AssertExactlyOnce(t retrytest.TestingT) bool {
	t.Helper()
	return report(t, l.CheckExactlyOnce())
}
