package compat_test

import (
	"fmt"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/matchers"
)

// Ginkgo runs BeforeEach, JustBeforeEach and It on goroutines of its own,
// and its interrupt handler has called signal.Notify: the clock made in
// one node and stepped in another must settle the code the It started.
var _ = ginkgo.Describe("a fake clock made in BeforeEach", func() {
	var (
		clk *fakeclock.Clock
		tr  *httpscript.Transport
	)
	ginkgo.BeforeEach(func() {
		clk = fakeclock.New(ginkgo.GinkgoT())
		tr = httpscript.NewTransport(ginkgo.GinkgoT(),
			httpscript.Respond(429).Times(2),
			httpscript.Respond(200),
		).WithClock(clk)
	})

	for i := range 32 * repeat() {
		ginkgo.It(fmt.Sprintf("steps an HTTP retry started in the It (%d)", i), func(ctx ginkgo.SpecContext) {
			go fetch(ctx, tr.Client(), clk, "https://api.example.com/items")
			clk.Step(0)
			gomega.Expect(tr).To(matchers.HaveAttempts(1))
			clk.Step(499 * time.Millisecond)
			gomega.Expect(tr).To(matchers.HaveAttempts(1))
			clk.Step(time.Millisecond)
			gomega.Expect(tr).To(matchers.HaveAttempts(2))
			clk.Step(time.Second)
			gomega.Expect(tr).To(matchers.HaveAttemptsAt(0, 500*time.Millisecond, 1500*time.Millisecond))
		})
	}

	for i := range 16 * repeat() {
		ginkgo.It(fmt.Sprintf("steps a plain goroutine started in the It (%d)", i), func() {
			n := make(chan int, 2)
			go sleeper(clk, n)
			clk.Step(499 * time.Millisecond)
			gomega.Expect(n).To(gomega.BeEmpty())
			clk.Step(time.Millisecond)
			gomega.Expect(n).To(gomega.HaveLen(1))
			clk.Step(time.Second)
			gomega.Expect(n).To(gomega.HaveLen(2))
		})
	}
})

var _ = ginkgo.Describe("a fake clock made in JustBeforeEach", func() {
	var clk *fakeclock.Clock
	ginkgo.JustBeforeEach(func() {
		clk = fakeclock.New(ginkgo.GinkgoT())
	})
	for i := range 16 * repeat() {
		ginkgo.It(fmt.Sprintf("steps a goroutine started in the It (%d)", i), func() {
			n := make(chan int, 2)
			go sleeper(clk, n)
			clk.Step(500 * time.Millisecond)
			gomega.Expect(n).To(gomega.HaveLen(1))
			clk.Step(999 * time.Millisecond)
			gomega.Expect(n).To(gomega.HaveLen(1))
			clk.Step(time.Millisecond)
			gomega.Expect(n).To(gomega.HaveLen(2))
		})
	}
})
