package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest/policysim"
)

// withBreakers writes the -breakers section: each policy shown, simulated
// again with the jobs split over clients that each have a circuit breaker,
// against its load without them.
func (sc scenario) withBreakers(b *strings.Builder, shown []shownPolicy) error {
	br := clientBreaker
	b.WriteByte('\n')
	b.WriteString(wrap(fmt.Sprintf("with circuit breakers: the %d jobs split over %d clients, each with sony/gobreaker's default breaker (%s). An attempt it refuses sends nothing, and counts as an attempt of its job's policy.",
		sc.jobs, sc.breakers, br)))
	b.WriteByte('\n')
	rows := [][]string{
		{"", "", "requests during", "peak after", "jobs", "attempts"},
		{"", "", "the " + schedfmt.Duration(sc.outage) + " outage", "recovery", "given up", "refused"},
	}
	var cuts []string
	for _, p := range shown {
		f := p.load.Fleet
		f.Clients, f.Breaker = sc.breakers, &br
		with, err := f.Simulate()
		if err != nil {
			return err
		}
		for i, l := range []*policysim.Load{p.load, with} {
			name, how, refused := "", "with", strconv.Itoa(l.Refused)
			if i == 0 {
				name, how, refused = f.Name, "without", "-"
			}
			rows = append(rows, []string{name, how, strconv.Itoa(l.OutageRequests), peak(l), strconv.Itoa(l.GaveUp), refused})
		}
		cuts = append(cuts, fmt.Sprintf("from %d to %d (%s)", p.load.OutageRequests, with.OutageRequests, f.Name))
	}
	writeTable(b, rows)
	b.WriteByte('\n')
	b.WriteString(wrap(fmt.Sprintf("During the outage the breakers cut the requests that reach the endpoint %s: each client sends its first %d failures, then one probe %s. After it, each client's next probe succeeds and closes its breaker, and the retries go through as their policy sends them.",
		strings.Join(cuts, ", "), br.Threshold, every(br.OpenFor))))
	return nil
}

// every says how often an open breaker probes: "a minute".
func every(d time.Duration) string {
	if d == time.Minute {
		return "a minute"
	}
	return "every " + schedfmt.Duration(d)
}
