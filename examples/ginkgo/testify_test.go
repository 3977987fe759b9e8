package ginkgo_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/stretchr/testify/suite"

	"github.com/retrykit/retrykit/examples/ginkgo"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

// fetchSuite makes its fixtures in SetupTest, with the suite's T(), and
// ends each test by cancelling the call and checking the clock is idle.
type fetchSuite struct {
	suite.Suite
	clk    *fakeclock.Clock
	tr     *httpscript.Transport
	ctx    context.Context
	cancel context.CancelFunc
}

func (s *fetchSuite) SetupTest() {
	s.clk = fakeclock.New(s.T())
	s.tr = httpscript.NewTransport(s.T(), httpscript.Respond(429).RetryAfter(7*time.Second), httpscript.Respond(200)).WithClock(s.clk)
	s.ctx, s.cancel = context.WithCancel(context.Background())
}

func (s *fetchSuite) TearDownTest() {
	s.cancel()
	s.clk.VerifyIdle()
}

// Fetch ignores the server's Retry-After: 7 and retries after its own
// 500ms; the check says so, with the hint in the row of the 429.
func (s *fetchSuite) TestIgnoresRetryAfter() {
	call := recorder.Start(s.clk, func() error { return ginkgo.Fetch(s.ctx, s.tr.Client(), s.clk, "https://api.example.com/items") })
	s.clk.Step(time.Second)
	require.True(s.T(), call.Returned())
	err := retrytest.CheckAttemptsAt(s.tr, 0, 7*time.Second)
	s.Require().ErrorContains(err, "Retry-After: 7 (asks to wait 7s)")
	retrytest.AssertAttemptsAt(s.T(), s.tr, 0, 500*time.Millisecond) // what it does
}

func TestFetchSuite(t *testing.T) { suite.Run(t, new(fetchSuite)) }
