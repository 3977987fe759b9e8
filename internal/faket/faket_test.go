package faket_test

import (
	"testing"

	"github.com/retrykit/retrykit/internal/faket"
)

func TestRunRecordsAndStopsAtFailNow(t *testing.T) {
	reached := false
	f := faket.Run(func(f *faket.T) {
		f.Helper()
		f.Errorf("want %d", 1)
		f.FailNow()
		reached = true
	})
	if reached {
		t.Error("the code after FailNow ran, want it stopped")
	}
	if len(f.Errors) != 1 || f.Errors[0] != "want 1" || !f.FailedNow || f.Helpers != 1 {
		t.Errorf("T = %+v, want one error \"want 1\", FailedNow, one Helper call", *f)
	}
}

func TestRunPassesOtherPanicsOn(t *testing.T) {
	defer func() {
		if r := recover(); r != "boom" {
			t.Errorf("recovered %v, want the panic \"boom\" passed on", r)
		}
	}()
	faket.Run(func(*faket.T) { panic("boom") })
	t.Error("Run returned, want the panic passed on")
}
