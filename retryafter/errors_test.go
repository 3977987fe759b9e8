package retryafter_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/retryafter"
)

// TestErrorMessages pins the text of every kind of error: each names the
// field, quotes the value (cut short when long) and says what was
// expected.
func TestErrorMessages(t *testing.T) {
	var b strings.Builder
	show := func(call string, err error) {
		t.Helper()
		if err == nil {
			t.Errorf("%s = nil error, want one", call)
			return
		}
		if !errors.Is(err, retryafter.ErrEmpty) && !errors.Is(err, retryafter.ErrMalformed) && !errors.Is(err, retryafter.ErrNoHint) {
			t.Errorf("%s = %v, which wraps no sentinel", call, err)
		}
		fmt.Fprintf(&b, "%s\n\t%v\n", call, err)
	}
	for _, v := range []string{
		"", "   ", "120 seconds", "-1", "+120", "1e3", "NaN", "0x78", ".5", "5.", "1.5",
		"\u00a0120", "120, 60", strings.Repeat("9", 60) + "x",
		"Wed, 12 Aug 2026 09:02:00 CEST", "Wed, 12 Aug 2026 09:02:00", "Wed, 12 Aug 2026 24:00:00 GMT",
		"Wed, 12 Aug 2026 09:60:00 GMT", "Wed, 12 Aug 2026 09:00:61 GMT", "Wed, 2 Aug 2026 09:02:00 GMT",
		"Wed, 12 Aug 26 09:02:00 GMT", "Wed, 12-Aug-2026 09:02:00 GMT", "Wed, 30 Feb 2026 09:02:00 GMT",
		"Wed, 12 Agu 2026 09:02:00 GMT", "Wdn, 12 Aug 2026 09:02:00 GMT", "Wed, 12 Aug 2026 09:02:00 GMT, Wed",
		"Thu, 12 Aug 2026 09:02:00 GMT", "wed, 12 aug 2026 09:02:00 GMT", "Wed, 12 Aug 2026 09:02:00.5 GMT",
		"Wed, 12-Aug-26 09:02:00 GMT", "Wednesday, 12-Aug-2026 09:02:00 GMT",
		"Wed Aug 2 09:02:00 2026", "Wed Aug 12 09:02:00 GMT 2026", "Wed Aug 12 09:02:00 26",
		"2026-08-12T09:02:00Z", "soon",
	} {
		_, err := retryafter.Parse(v, t0)
		if err != nil {
			show(fmt.Sprintf("Parse(%q)", v), err)
		}
		_, serr := retryafter.ParseStrict(v, t0)
		if serr != nil && (err == nil || serr.Error() != err.Error()) {
			show(fmt.Sprintf("ParseStrict(%q)", v), serr)
		}
	}
	for _, f := range [][2]string{
		{"Retry-After-Ms", "-1"},
		{"X-Ms-Retry-After-Ms", "1.5"},
		{"X-Amz-Retry-After", "invalid"},
		{"RateLimit", `"default";r=50;t=30`},
		{"RateLimit", `"default";r=0`},
		{"RateLimit", `default;r=0;t=30`},
		{"RateLimit", `"default";t=30`},
		{"RateLimit", `"default";r=0;t=1.5`},
		{"RateLimit", `"default";r=-1;t=5`},
		{"RateLimit", `"default";r=0;t=1234567890123456`},
		{"RateLimit", `"default";r=0;t=30,`},
		{"RateLimit", `"a";r=0;T=1`},
		{"RateLimit-Reset", "1.5"},
		{"X-RateLimit-Reset-Tokens", "1d"},
		{"X-Foo", "1"},
	} {
		_, err := retryafter.ParseField(f[0], f[1], t0)
		show(fmt.Sprintf("ParseField(%q, %q)", f[0], f[1]), err)
	}
	for _, f := range [][2]string{
		{"X-RateLimit-Reset-Tokens", "1d"},
		{"X-RateLimit-Reset-Tokens", "+1s"},
		{"Anthropic-RateLimit-Tokens-Reset", "2026-08-12 09:00:30Z"},
		{"X-RateLimit-Reset", "soon"},
	} {
		_, err := retryafter.ParseField(f[0], f[1], t0, retryafter.WithProviders(retryafter.OpenAI, retryafter.Anthropic, retryafter.GitHub, retryafter.Discord))
		show(fmt.Sprintf("ParseField(%q, %q, all providers)", f[0], f[1]), err)
	}
	for _, v := range []string{"22", "-1s", "3m", "0.1234567890s", ""} {
		_, err := retryafter.ParseProtoDuration(v)
		show(fmt.Sprintf("ParseProtoDuration(%q)", v), err)
	}
	for _, tc := range []struct {
		name string
		resp *http.Response
		opts []retryafter.Option
	}{
		{"nil response", nil, nil},
		{"200 OK", response(200, "Retry-After", "5"), nil},
		{"500 with GitHub", response(500), []retryafter.Option{retryafter.WithProviders(retryafter.GitHub)}},
		{"429 without fields", response(429), nil},
		{"429 with bad fields", response(429, "Retry-After-Ms", "NaN", "Retry-After", "abc", "Retry-After", "120", "RateLimit", `"default";r=0`), nil},
	} {
		_, err := retryafter.FromResponse(tc.resp, t0, tc.opts...)
		show("FromResponse("+tc.name+")", err)
	}
	golden.Check(t, "errors", b.String())
}

// TestErrorTextIsBounded checks that no error quotes a huge value whole,
// wherever in the value the problem is found.
func TestErrorTextIsBounded(t *testing.T) {
	mb := strings.Repeat("w", 1<<20)
	calls := map[string]func() error{}
	for _, v := range []string{
		mb, mb + ",", "Wed, 12 Aug 2026 09:02:00 " + mb, "Wed, 12 Aug 2026 09:02:00 GMT" + mb,
		"Wed, 12 Aug 2026 09:02:00 GMT, " + mb, "Wednesday, 12-Aug-26 09:02:00 GMT " + mb,
		"W" + mb + ", 12 Aug 2026 09:02:00 GMT", "wednesday" + mb + ", 12-Aug-26 09:02:00 GMT",
		"Wed, 12 " + mb + " 2026 09:02:00 GMT", strings.Repeat("1", 1<<20) + "x",
	} {
		calls["Parse/"+v[:12]] = func() error { _, err := retryafter.Parse(v, t0); return err }
		calls["ParseStrict/"+v[:12]] = func() error { _, err := retryafter.ParseStrict(v, t0); return err }
	}
	calls["RateLimit"] = func() error { _, err := retryafter.ParseField("RateLimit", `"`+mb, t0); return err }
	calls["unknown field"] = func() error { _, err := retryafter.ParseField(mb, "1", t0); return err }
	calls["proto"] = func() error { _, err := retryafter.ParseProtoDuration(mb); return err }
	calls["response"] = func() error {
		_, err := retryafter.FromResponse(response(429, "Retry-After", mb, "Retry-After-Ms", mb, "RateLimit", mb), t0)
		return err
	}
	for name, call := range calls {
		err := call()
		if err == nil || len(err.Error()) > 1000 {
			t.Errorf("%s: error of %d bytes, want a short one: %.300v", name, len(fmt.Sprint(err)), err)
		}
	}
}
