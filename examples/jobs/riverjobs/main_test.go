package riverjobs_test

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		if err := removeTemplate(); err != nil {
			os.Stderr.WriteString("riverjobs: " + err.Error() + "\n")
			code = max(code, 1)
		}
		os.Exit(code)
	}))
}
