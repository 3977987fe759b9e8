package grpcscript_test

import (
	"fmt"
	"time"

	"google.golang.org/grpc"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"

	"github.com/retrykit/retrykit/internal/faket"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

// The methods of grpc's own test service the tests script.
const (
	emptyCall  = "/grpc.testing.TestService/EmptyCall"
	unaryCall  = "/grpc.testing.TestService/UnaryCall"
	streamCall = "/grpc.testing.TestService/StreamingOutputCall"
)

// retryPolicy is a service config with grpc-go's retry policy for the
// test service: 4 attempts, 1s doubling to 10s, UNAVAILABLE retried.
const retryPolicy = `{"methodConfig": [{"name": [{"service": "grpc.testing.TestService"}],
  "retryPolicy": {"maxAttempts": 4, "initialBackoff": "1s", "maxBackoff": "10s", "backoffMultiplier": 2,
    "retryableStatusCodes": ["UNAVAILABLE"]}}]}`

// fakeT records what a server reports through it.
type fakeT = faket.T

// client is the test service's client over cc.
func client(cc *grpc.ClientConn) testgrpc.TestServiceClient { return testgrpc.NewTestServiceClient(cc) }

// attemptsOf reads s's attempts as the recorder lists its own.
func attemptsOf(s retrytest.Schedule) []recorder.Attempt {
	at, results, _, _ := s.RetrySchedule()
	out := make([]recorder.Attempt, len(at))
	var prev time.Duration
	for i, a := range at {
		out[i] = recorder.Attempt{Index: i + 1, At: a, Delay: a - prev, Result: results[i]}
		prev = a
	}
	return out
}

// signalT is a fakeT that also signals each report on a channel, for a
// report made by another goroutine.
type signalT struct {
	*fakeT
	reported chan string
}

func newSignalT() *signalT { return &signalT{fakeT: &fakeT{}, reported: make(chan string, 8)} }

func (s *signalT) Errorf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.fakeT.Errorf("%s", msg)
	s.reported <- msg
}
