package retrytest_test

import (
	"io"
	"net/http"
	"strconv"
	"testing"

	"github.com/retrykit/retrykit/httpscript"
)

// BenchmarkTransportRoundTrip is the cost of one request through the
// scripted transport and an http.Client: what a retry test pays per
// attempt instead of a socket.
func BenchmarkTransportRoundTrip(b *testing.B) {
	tr := httpscript.NewTransport(b, httpscript.Respond(200).Body("ok").Always())
	client := tr.Client()
	b.ReportAllocs()
	for b.Loop() {
		resp, err := client.Get("https://api.example.com/v1/items")
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}

// BenchmarkTransportRoutes adds route matching over 20 patterns.
func BenchmarkTransportRoutes(b *testing.B) {
	tr := httpscript.NewTransport(b)
	for i := range 20 {
		tr.Route("GET /v1/r"+strconv.Itoa(i)+"/{id}", httpscript.Respond(200).Always())
	}
	req, _ := http.NewRequest("GET", "https://api.example.com/v1/r19/7", nil)
	b.ReportAllocs()
	for b.Loop() {
		resp, err := tr.RoundTrip(req)
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
	}
}

// BenchmarkLedgerApplyKey is one duplicate key applied.
func BenchmarkLedgerApplyKey(b *testing.B) {
	l := httpscript.NewLedger()
	b.ReportAllocs()
	for b.Loop() {
		l.ApplyKey("charge-1")
	}
}
