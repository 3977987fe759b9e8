package grpcconformance_test

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"

	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
	"github.com/retrykit/retrykit/retrytest/conformance/grpcsuite/grpcconformance"
)

// TestREADME: every Go block of grpcsuite's README.md is in the file the
// comment before it names (from grpcsuite), and the failure it shows is
// the one the suite reports for the Spec the README describes.
func TestREADME(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)(?:<!-- copied from (\\S+) -->\\n)?```go\\n(.*?)```").FindAllStringSubmatch(string(readme), -1)
	if len(blocks) == 0 {
		t.Fatal("README.md has no Go blocks; this test would prove nothing")
	}
	for i, b := range blocks {
		src, err := os.ReadFile("../" + b[1])
		if b[1] == "" || err != nil || !strings.Contains(string(src), b[2]) {
			t.Errorf("README.md Go block %d is not in the file %q it names (%v):\n%s", i+1, b[1], err, b[2])
		}
	}
	m := regexp.MustCompile("(?s)<!-- failure of TestRetryPolicy/(\\S+) -->\\n```text\\n(.*?)```").FindStringSubmatch(string(readme))
	if m == nil {
		t.Fatal("README.md shows no failure of TestRetryPolicy")
	}
	spec := grpcconformance.Spec{
		Policy: retrytest.Policy{First: time.Second, Growth: 2, Cap: 5 * time.Second,
			Jitter: retrytest.FactorJitter, JitterFactor: 0.2, Attempts: 5},
		OwnRandom:   true,
		AttemptsCap: 5,
		Retryable:   []codes.Code{codes.Unavailable, codes.ResourceExhausted},
		Pushback:    &grpcconformance.Pushback{},
		AttemptKey:  "grpc-previous-rpc-attempts",
	}
	r, err := grpcconformance.CheckClient(t, spec, func(s grpcconformance.Seams) grpcconformance.Call {
		cc, err := s.Dial(grpc.WithDefaultServiceConfig(serviceConfig))
		if err != nil {
			return nil
		}
		client := testgrpc.NewTestServiceClient(cc)
		return func(ctx context.Context) error {
			_, err := client.EmptyCall(ctx, &testgrpc.Empty{})
			return err
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, res := range r.Results {
		for _, cs := range res.Cases {
			if cs.Verdict == conformance.Failed {
				got = append(got, "--- FAIL: TestRetryPolicy/"+res.Property+"/"+cs.Name+"\n    "+strings.ReplaceAll(strings.TrimRight(cs.Message, "\n"), "\n", "\n    ")+"\n")
			}
		}
	}
	if len(got) != 1 || got[0] != m[2] || !strings.HasPrefix(m[2], "--- FAIL: TestRetryPolicy/"+m[1]+"\n") {
		t.Errorf("the README shows the failure\n%s\nwant the one the suite reports, alone:\n%s", m[2], strings.Join(got, "\n"))
	}
}
