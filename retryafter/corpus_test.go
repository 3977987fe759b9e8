package retryafter_test

import (
	"bytes"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/retrykit/retrykit/retryafter"
)

// corpusFallback is the backoff the corpus tests use, distinct from every
// expected delay so that a fallback cannot pass for a hint.
const corpusFallback = 1234 * time.Millisecond

// decideCase runs one corpus case through the package the way a user
// would: Apply for a response, the matching parser plus ApplyHint for a
// field.
func decideCase(t *testing.T, c retryafter.Vector, strict bool) retryafter.Wait {
	t.Helper()
	var opts []retryafter.Option
	if ps := c.Providers(); ps != nil {
		opts = append(opts, retryafter.WithProviders(ps...))
	}
	if strict {
		opts = append(opts, retryafter.WithStrict())
	}
	if c.UseDateHeader {
		opts = append(opts, retryafter.WithDateHeader())
	}
	p := retryafter.Limits{
		Min:      c.Min,
		Max:      c.Max,
		Fallback: func(int) time.Duration { return corpusFallback },
		Options:  opts,
	}
	switch {
	case c.Header != nil:
		return p.Apply(c.Response(), c.Now, 1)
	case c.Field == "google.rpc.RetryInfo.retryDelay":
		d, err := retryafter.ParseProtoDuration(c.Value)
		return p.ApplyHint(retryafter.Hint{Delay: d}, err, 1)
	case c.Field == "Retry-After":
		parse := retryafter.Parse
		if strict {
			parse = retryafter.ParseStrict
		}
		d, err := parse(c.Value, c.Now)
		h, ferr := retryafter.ParseField(c.Field, c.Value, c.Now, opts...)
		if d != h.Delay || (err == nil) != (ferr == nil) {
			t.Errorf("Parse(%q) = %v, %v but ParseField = %v, %v", c.Value, d, err, h.Delay, ferr)
		}
		return p.ApplyHint(retryafter.Hint{Delay: d}, err, 1)
	default:
		h, err := retryafter.ParseField(c.Field, c.Value, c.Now, opts...)
		return p.ApplyHint(h, err, 1)
	}
}

func TestCorpus(t *testing.T) {
	for _, mode := range []struct {
		name   string
		strict bool
	}{{"lenient", false}, {"strict", true}} {
		t.Run(mode.name, func(t *testing.T) {
			for _, c := range retryafter.Corpus() {
				t.Run(c.ID, func(t *testing.T) {
					wantErr := c.WantErr
					if mode.strict {
						wantErr = c.StrictWantErr
					}
					d := decideCase(t, c, mode.strict)
					if wantErr != nil {
						wantDelay := min(max(corpusFallback, c.Min), c.Max)
						if !errors.Is(d.Err, wantErr) || d.Delay != wantDelay || d.Origin != retryafter.OriginBackoff {
							t.Errorf("%s %q: decision = %v, want the fallback %v with an error wrapping %v", c.ID, c.Value, d, wantDelay, wantErr)
						}
						return
					}
					if d.Err != nil || d.Delay != c.Want {
						t.Errorf("%s %q: decision = %v, want %v (%s)", c.ID, c.Value, d, c.Want, c.Note)
					}
					checkOutcome(t, c, d)
				})
			}
		})
	}
}

// checkOutcome checks the decision's flags against the research's label.
func checkOutcome(t *testing.T, c retryafter.Vector, d retryafter.Wait) {
	t.Helper()
	var ok bool
	switch c.Outcome {
	case "clamped":
		ok = d.Clamped && !d.Floored
	case "floored":
		ok = d.Floored && !d.Clamped
	case "zero":
		ok = d.Delay == 0 && !d.Clamped && !d.Floored
	case "delay":
		ok = !d.Clamped && !d.Floored
	default:
		t.Fatalf("%s: outcome %q for a delay", c.ID, c.Outcome)
	}
	if !ok {
		t.Errorf("%s: decision = %v (clamped %t, floored %t), want outcome %q", c.ID, d, d.Clamped, d.Floored, c.Outcome)
	}
}

// TestCorpusIsComplete checks that Corpus returns every line of the
// embedded file, with unique IDs.
func TestCorpusIsComplete(t *testing.T) {
	data, err := os.ReadFile("testdata/vectors.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Count(bytes.TrimSpace(data), []byte("\n")) + 1
	cases := retryafter.Corpus()
	if len(cases) != lines {
		t.Errorf("len(Corpus()) = %d, want %d (the lines of testdata/vectors.jsonl)", len(cases), lines)
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.ID] {
			t.Errorf("Corpus(): duplicate ID %s", c.ID)
		}
		seen[c.ID] = true
	}
}
