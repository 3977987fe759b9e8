package anthropicgo_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/retrykit/retrykit/httpscript"
)

// The backoff converts 0.5s·2^k to a Duration before the 8s cap
// (internal/requestconfig/requestconfig.go:408-411): from retry count 35
// on, 0.5e9·2^35 is beyond int64, the conversion gives the smallest int64
// on amd64, the cap does not apply, and rand.Int63n of a quarter of it
// (requestconfig.go:413) panics. With WithMaxRetries(40) and a server that
// answers 503, the 36th attempt's failure panics the caller's goroutine,
// after 3m17s to 4m24s of waits.
func TestPitfallBackoffPanicsAfter35Retries(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("how a float beyond int64 converts to a Duration depends on the architecture: this pins amd64's")
	}
	synctest.Test(t, func(t *testing.T) {
		tr := httpscript.NewTransport(t, httpscript.Respond(503).Always())
		c := anthropic.NewClient(option.WithAPIKey("sk-ant-test"), option.WithBaseURL("https://api.example.com/"),
			option.WithHTTPClient(tr.Client()), option.WithMaxRetries(40))
		got := func() (r any) {
			defer func() { r = recover() }()
			_ = c.Get(t.Context(), "v1/models/x", nil, nil)
			return nil
		}()
		if msg := fmt.Sprint(got); !strings.Contains(msg, "invalid argument to Int63n") {
			t.Errorf("Get with WithMaxRetries(40) against 503s: recovered %v, want the panic of rand.Int63n", got)
		}
		if n := len(tr.Requests()); n != 36 {
			t.Errorf("%d attempts before the panic, want 36: retry counts 0 to 34 wait, 35 panics", n)
		}
	})
}
