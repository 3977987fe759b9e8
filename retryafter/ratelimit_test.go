package retryafter_test

import (
	"errors"
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retryafter"
)

// TestRateLimitField checks the Structured Field syntax (RFC 9651) the
// RateLimit field is read with, and the draft's rules on top of it.
func TestRateLimitField(t *testing.T) {
	for _, tc := range []struct {
		value   string
		want    time.Duration
		wantErr error
	}{
		{`"a";r=0;t=5`, 5 * time.Second, nil},
		{`"a";r=0;t=5,"b";r=0;t=7`, 7 * time.Second, nil},
		{"\"a\";r=0;t=5 ,\t\"b\";r=0;t=6", 6 * time.Second, nil},
		{`"a";r=0;t=5 , "b";r=1;t=70`, 5 * time.Second, nil},
		{`"a"; r=0; t=5`, 5 * time.Second, nil},
		{`"a";r=0;t=0`, 0, nil},
		{`"a";r=0;t=05`, 5 * time.Second, nil},
		{`"a";r=0;t=5;t=9`, 9 * time.Second, nil}, // the last value of a key wins
		{`"a";r=1;r=0;t=3`, 3 * time.Second, nil},
		{`"a\"b\\";r=0;t=5`, 5 * time.Second, nil},
		{`"a";r=0;t=5;pk=:dGVzdA==:`, 5 * time.Second, nil},
		{`"a";r=0;t=5;qu="requests";x=?1;y=@1;z=-1.5;w=tok/en:x;v=%"caf%c3%a9";*k`, 5 * time.Second, nil},
		{`"a";r=0;t=999999999999999`, retryafter.Forever, nil},
		{`"a";r=5;t=5`, 0, retryafter.ErrNoHint},
		{`"a";r=0, "b";r=0`, 0, retryafter.ErrNoHint},
		{`("x" "y");r=0;t=5`, 0, retryafter.ErrMalformed},
		{`("x" "y"`, 0, retryafter.ErrMalformed},
		{`"a" ;r=0;t=5`, 0, retryafter.ErrMalformed},
		{`"a";r=0;t=-5`, 0, retryafter.ErrMalformed},
		{`"a";r=?0;t=5`, 0, retryafter.ErrMalformed},
		{`"a";r;t=5`, 0, retryafter.ErrMalformed},
		{`"a";r=0;t="5"`, 0, retryafter.ErrMalformed},
		{`"a\x";r=0;t=5`, 0, retryafter.ErrMalformed},
		{`"a";r=0;t=5,,"b";r=0;t=1`, 0, retryafter.ErrMalformed},
		{`,"a";r=0;t=5`, 0, retryafter.ErrMalformed},
		{`"unterminated;r=0`, 0, retryafter.ErrMalformed},
		{`"a";r=0;t=5;Key=1`, 0, retryafter.ErrMalformed},
		{`"a";r=0;t=1.`, 0, retryafter.ErrMalformed},
		{`"a";r=0;t=1.5555`, 0, retryafter.ErrMalformed},
		{`"a";r=0;t=1234567890123.5`, 0, retryafter.ErrMalformed},
		{`"a";r=0;t=5;pk=:abc`, 0, retryafter.ErrMalformed},
		{`"a";r=0;t=5;pk=:a b:`, 0, retryafter.ErrMalformed},
		{`"a";r=0;t=5;v=%"x%C3"`, 0, retryafter.ErrMalformed},
		{`"a";r=0;t=5;v=%x`, 0, retryafter.ErrMalformed},
		{`"a";r=0;t=5;b=?2`, 0, retryafter.ErrMalformed},
		{`"a";r=0;t=5;d=@1.5`, 0, retryafter.ErrMalformed},
		{`"é";r=0;t=5`, 0, retryafter.ErrMalformed},
		{`"a";r=0;t=--5`, 0, retryafter.ErrMalformed},
		{`"a";r=0;t=5;x=[1]`, 0, retryafter.ErrMalformed},
		{"", 0, retryafter.ErrEmpty},
	} {
		got, err := retryafter.ParseField("RateLimit", tc.value, t0)
		if got.Delay != tc.want || !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) {
			t.Errorf("ParseField(RateLimit, %q) = %s, %v, want %s, %v", tc.value, schedfmt.Duration(got.Delay), err, schedfmt.Duration(tc.want), tc.wantErr)
		}
	}
}
