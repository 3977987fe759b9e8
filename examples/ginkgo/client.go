package ginkgo

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/clockctx"
)

// Fetch gets url, retrying a 429 or a 5xx up to three times after 500ms,
// 1s and 2s, on clk: the code under test of the suites.
func Fetch(ctx context.Context, client *http.Client, clk clockwork.Clock, url string) error {
	wait := 500 * time.Millisecond
	for attempt := 1; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode < 400 {
			return nil
		}
		if resp.StatusCode != 429 && resp.StatusCode < 500 || attempt == 4 {
			return fmt.Errorf("fetch %s: %s", url, resp.Status)
		}
		if err := clockctx.Sleep(ctx, clk, wait); err != nil {
			return err
		}
		wait *= 2
	}
}
