package httpscript

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"slices"
	"time"
)

// Request is one request a [Transport] received, as [Transport.Requests]
// reports it. Every field is a copy: changing it changes nothing in the
// transport.
type Request struct {
	// Attempt is the 1-based number of the request among all the requests
	// the transport received: 3 for the third.
	Attempt int
	// At is the time the request arrived, on the transport's clock (the
	// time package's, which is fake inside a synctest bubble, unless
	// Transport.WithClock gave another). Outside a bubble without a
	// clock it is the real time, which the transport's failure texts and
	// Attempts leave out.
	At time.Time
	// Method is the request's method.
	Method string
	// URL is the request's URL.
	URL *url.URL
	// Header is the request's header, as the client sent it.
	Header http.Header
	// Body is the whole request body, read when the request arrived; nil
	// when there was none. A client that resends a consumed body on a
	// retry shows an empty Body here.
	Body []byte
	// Route is the pattern of the route that answered, or "" for the
	// default script.
	Route string
	// Step is the 1-based step of that script that answered, or 0 for an
	// unexpected request.
	Step int
	// Result is what the transport answered: the status line ("429 Too
	// Many Requests") or the error's text.
	Result string
	// Conn is the 1-based number of the connection that carried the
	// request to [Transport.Handler], in the order the handler first saw
	// each, so that a test sees whether the client reused its
	// connections; 0 for a request that came through RoundTrip.
	Conn int
	// Proto is the protocol the request came in over to the Handler,
	// "HTTP/1.1" or "HTTP/2.0"; "" for a request that came through
	// RoundTrip.
	Proto string

	hint string // the reply's wait hint, for Attempts; see waitHint
	// unseenBody: the Handler answered with a body, whose Close the
	// transport cannot see.
	unseenBody bool
}

// result is the request's Result with the reply's wait hint, if any: the
// result column of the transport's attempts.
func (r Request) result() string {
	if r.hint == "" {
		return r.Result
	}
	return r.Result + ", " + r.hint
}

// BodyReader returns a new reader over Body, so the body can be read as
// often as a test likes.
func (r Request) BodyReader() io.Reader { return bytes.NewReader(r.Body) }

// clone returns a deep copy of r.
func (r Request) clone() Request {
	if r.URL != nil {
		u := *r.URL // a Userinfo is immutable, so sharing it is safe
		r.URL = &u
	}
	r.Header = r.Header.Clone()
	if r.Body != nil {
		r.Body = slices.Clone(r.Body)
	}
	return r
}

// readBody reads and closes the body of req, as a transport must; nil when
// there is none.
func readBody(req *http.Request) ([]byte, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, nil
	}
	defer req.Body.Close()
	b, err := io.ReadAll(req.Body)
	if b == nil {
		b = []byte{}
	}
	return b, err
}
