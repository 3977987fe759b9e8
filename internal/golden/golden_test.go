package golden

import "testing"

func TestDiff(t *testing.T) {
	for _, tc := range []struct{ want, got, diff string }{
		{"a\nb\n", "a\nb\n", ""},
		{"a\nb\nc", "a\nx\nc", "  a\n- b\n+ x\n  c\n"},
		{"a", "a\nb", "  a\n+ b\n"},
		{"a\nb", "b", "- a\n  b\n"},
	} {
		if got := Diff(tc.want, tc.got); got != tc.diff {
			t.Errorf("Diff(%q, %q) =\n%s\nwant\n%s", tc.want, tc.got, got, tc.diff)
		}
	}
}
