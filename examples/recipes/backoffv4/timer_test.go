package backoffv4_test

import (
	"fmt"
	"testing"

	"github.com/retrykit/retrykit/examples/recipes/backoffv4"
)

func TestNilPanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func()
		want string
	}{
		{"NewTimer", func() { backoffv4.NewTimer(nil) }, "backoffv4: NewTimer: nil clock"},
		{"NewRecordingTimer", func() { backoffv4.NewRecordingTimer(nil) }, "backoffv4: NewRecordingTimer: nil recorder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if got := fmt.Sprint(recover()); got != tc.want {
					t.Errorf("%s(nil) panicked with %q, want %q", tc.name, got, tc.want)
				}
			}()
			tc.f()
		})
	}
}
