package retryafter

import (
	"strings"
	"testing"
)

// TestDecodeCorpusErrors checks that a damaged vectors file is reported
// with its line, never half-loaded.
func TestDecodeCorpusErrors(t *testing.T) {
	for _, tc := range []struct {
		data string
		want string
	}{
		{`{"id":"RA1","header":"Retry-After","value":"1","want_error":false}`, `line 1 (RA1): neither want_error nor want_delay_ms`},
		{`{"id":"RA1","header":"Retry-After","value":"1","want_error":true,"error_kind":"odd"}`, `line 1 (RA1): unknown error_kind "odd"`},
		{`{"id":"RA1","header":"(response)","value":"","want_delay_ms":1}`, `line 1 (RA1): response case without headers`},
		{"\n" + `{"id":"RA1","extra":1}`, `line 2: json: unknown field "extra"`},
		{`{"id":`, `line 1: unexpected EOF`},
	} {
		cases, err := decodeCorpus([]byte(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) || cases != nil {
			t.Errorf("decodeCorpus(%q) = %d cases, %v, want an error containing %q", tc.data, len(cases), err, tc.want)
		}
	}
}
