package compat_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/suite"

	"github.com/retrykit/retrykit/fakeclock"
)

// clockSuite makes its clock in SetupTest, as a testify suite does with its
// fixtures.
type clockSuite struct {
	suite.Suite
	clk *fakeclock.Clock
}

func (s *clockSuite) SetupTest() {
	s.clk = fakeclock.New(s.T())
}

func (s *clockSuite) TestStepsTheLoop() {
	n := make(chan int, 2)
	go sleeper(s.clk, n)
	s.clk.Step(499 * time.Millisecond)
	s.Empty(n)
	s.clk.Step(time.Millisecond)
	s.Len(n, 1)
	s.clk.Step(time.Second)
	s.Len(n, 2)
}

func (s *clockSuite) TestStepsFromASubtest() {
	s.Run("subtest", func() {
		n := make(chan int, 2)
		go sleeper(s.clk, n)
		s.clk.Step(500 * time.Millisecond)
		s.Len(n, 1)
		s.clk.Step(time.Second)
		s.Len(n, 2)
	})
}

func TestTestifySuite(t *testing.T) {
	for range 16 * repeat() {
		suite.Run(t, new(clockSuite))
	}
}
