package chart_test

import (
	"fmt"
	"time"

	"github.com/retrykit/retrykit/internal/chart"
)

func ExampleChart_Text() {
	c := chart.Chart{
		Title:    "requests per 1m after recovery",
		Counts:   []int{900, 700, 450, 300, 200, 120, 60, 20},
		Bucket:   time.Minute,
		Capacity: 600,
		Span:     20,
	}
	fmt.Print(c.Text())
	// Output:
	// requests per 1m after recovery
	//   900 |#
	//       |#
	//       |##
	//   600 |##------------------
	//       |##
	//       |##
	//       |###
	//       |####
	//       |#####
	//       |######
	//       |########
	//     0 +----------+---------
	//        0s        10m
	//        ^ peak 900 in [0s, 1m)
}
