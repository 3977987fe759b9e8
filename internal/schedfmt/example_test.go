package schedfmt_test

import (
	"fmt"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

func ExampleTable() {
	tab := schedfmt.Table{Indent: "  ", Rows: []schedfmt.Row{
		{Attempt: "1", Delay: schedfmt.Duration(0), Want: "0s", Result: "503 Service Unavailable"},
		{Attempt: "2", Delay: schedfmt.Duration(100 * time.Millisecond), Want: schedfmt.Window(50*time.Millisecond, 150*time.Millisecond), Result: "503 Service Unavailable"},
		{Attempt: "3", Delay: schedfmt.Duration(450 * time.Millisecond), Want: schedfmt.Window(200*time.Millisecond, 400*time.Millisecond), Result: "ok",
			Marked: true, Reason: "delay 450ms outside [200ms, 400ms]"},
	}}
	fmt.Print(tab)
	// Output:
	//     attempt  delay  want            result
	//     1        0s     0s              503 Service Unavailable
	//     2        100ms  [50ms, 150ms]   503 Service Unavailable
	//   > 3        450ms  [200ms, 400ms]  ok  <-- delay 450ms outside [200ms, 400ms]
}

func ExampleDuration() {
	for _, d := range []time.Duration{1500 * time.Millisecond, time.Hour, 90 * time.Minute, 0} {
		fmt.Println(schedfmt.Duration(d))
	}
	// Output:
	// 1.5s
	// 1h
	// 1h30m
	// 0s
}

func ExampleGrid() {
	g := schedfmt.Grid{Header: []string{"key", "requests", "outcome"}, Rows: []schedfmt.GridRow{
		{Cells: []string{`"charge-1a"`, "3", "applied once, 2 duplicates ignored"}},
		{Cells: []string{"(none)", "1", "applied"}, Marked: true, Reason: "no idempotency key"},
	}}
	fmt.Print(g)
	// Output:
	//   key          requests  outcome
	//   "charge-1a"  3         applied once, 2 duplicates ignored
	// > (none)       1         applied  <-- no idempotency key
}
