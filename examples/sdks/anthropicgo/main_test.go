package anthropicgo_test

import (
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/retrykit/retrykit/examples/sdks/internal/sdktable"
)

// TestMain runs the tests in a process whose Local zone is UTC: the client
// parses an HTTP-date with time.Parse, which looks its zone abbreviation
// up in time.Local, so the zone case's pin ("CEST" read as GMT) holds
// whatever zone the machine is in.
func TestMain(m *testing.M) {
	time.Local = time.UTC
	goleak.VerifyTestMain(sdktable.Main(m, "anthropic-sdk-go"))
}
