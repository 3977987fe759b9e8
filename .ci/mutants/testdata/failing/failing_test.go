package failing

import "testing"

// TestCeiling wants 9, which no ceiling of powers of two gives: it fails
// on the code as it is, as the gate's baseline must see.
func TestCeiling(t *testing.T) {
	if got := Ceiling(1, 100, 3); got != 9 {
		t.Errorf("Ceiling(1, 100, 3) = %d, want 9", got)
	}
}
