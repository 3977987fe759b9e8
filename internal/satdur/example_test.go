package satdur_test

import (
	"fmt"
	"math"
	"time"

	"github.com/retrykit/retrykit/internal/satdur"
)

func ExampleAdd() {
	fmt.Println(satdur.Add(math.MaxInt64, time.Hour))
	fmt.Println(satdur.Add(time.Second, 500*time.Millisecond))
	// Output:
	// 2562047h47m16.854775807s
	// 1.5s
}
