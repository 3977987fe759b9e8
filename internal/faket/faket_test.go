package faket_test

import (
	"errors"
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
		t.Errorf("T = %q %v %d, want one error \"want 1\", FailedNow, one Helper call", f.Errors, f.FailedNow, f.Helpers)
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

func TestFatalfStopsAndCleanupsRunLastFirst(t *testing.T) {
	var order []int
	reached := false
	f := faket.Run(func(f *faket.T) {
		f.Cleanup(func() { order = append(order, 1) })
		f.Cleanup(func() { order = append(order, 2) })
		f.Logf("log %d", 7)
		f.Fatalf("fatal %s", "x")
		reached = true
	})
	if reached {
		t.Error("the code after Fatalf ran, want it stopped")
	}
	if len(order) != 2 || order[0] != 2 || order[1] != 1 {
		t.Errorf("cleanups ran in order %v, want [2 1]", order)
	}
	if len(f.Errors) != 1 || f.Errors[0] != "fatal x" || !f.FailedNow || len(f.Logs) != 1 || f.Logs[0] != "log 7" {
		t.Errorf("T: errors %q, logs %q, FailedNow %v; want one error \"fatal x\", one log \"log 7\", FailedNow", f.Errors, f.Logs, f.FailedNow)
	}
}

func TestPanicText(t *testing.T) {
	for _, tc := range []struct {
		fn   func()
		want string
	}{
		{func() {}, ""},
		{func() { panic("boom") }, "boom"},
		{func() { panic(errors.New("bad")) }, "bad"},
		{func() { panic(42) }, "42"},
	} {
		if got := faket.PanicText(tc.fn); got != tc.want {
			t.Errorf("PanicText = %q, want %q", got, tc.want)
		}
	}
}
