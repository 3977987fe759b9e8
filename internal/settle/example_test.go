package settle_test

import (
	"fmt"

	"github.com/retrykit/retrykit/internal/settle"
)

func ExampleParse() {
	dump := []byte(`goroutine 7 [running]:
main.main()
	/tmp/main.go:4 +0x126

goroutine 9 [chan receive, 2 minutes]:
main.worker()
	/tmp/main.go:9 +0x19
created by main.main in goroutine 7
	/tmp/main.go:12 +0xe5
`)
	for _, g := range settle.Parse(dump) {
		fmt.Printf("%d %q parent=%d %s\n", g.ID, g.State, g.Parent, g.Class())
	}
	// Output:
	// 7 "running" parent=0 busy
	// 9 "chan receive" parent=7 idle
}
