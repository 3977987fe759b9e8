package compat_test

import (
	"context"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/jonboulle/clockwork"
)

// fetch is the README's retry client: it retries a 429 up to 5 attempts,
// waiting 500ms, then doubling, on clk.
func fetch(ctx context.Context, client *http.Client, clk clockwork.Clock, url string) (*http.Response, error) {
	delay := 500 * time.Millisecond
	for attempt := 1; ; attempt++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		resp, err := client.Do(req)
		if err != nil || resp.StatusCode != http.StatusTooManyRequests || attempt == 5 {
			return resp, err
		}
		resp.Body.Close()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-clk.After(delay):
		}
		delay *= 2
	}
}

// sleeper is a loop on clk that counts its wake-ups: it sleeps 500ms,
// then 1s, adding one to n after each.
func sleeper(clk clockwork.Clock, n chan<- int) {
	count := 0
	for _, d := range []time.Duration{500 * time.Millisecond, time.Second} {
		clk.Sleep(d)
		count++
		n <- count
	}
}

// repeat is how many times the settle specs and tests run each shape:
// RETRYKIT_REPEAT, or 1. Ginkgo refuses go test -count above 1, so the
// flake hunt sets this instead.
func repeat() int {
	if n, err := strconv.Atoi(os.Getenv("RETRYKIT_REPEAT")); err == nil && n > 0 {
		return n
	}
	return 1
}
