package main

import (
	"fmt"
	"io"
	"strings"
)

// A bad flag prints what is wrong and the usage, and exits with status 2.
func Example_badFlag() {
	var stderr strings.Builder
	code := run([]string{"-jitter", "half"}, io.Discard, &stderr)
	fmt.Println("exit status", code)
	fmt.Println(strings.SplitN(stderr.String(), "\n", 2)[0])
	// Output:
	// exit status 2
	// fleetsim: -jitter "half", want one of ["none" "full" "equal" "added"]
}
