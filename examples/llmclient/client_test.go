package llmclient_test

import (
	"encoding/json"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/onsi/gomega"

	"github.com/retrykit/retrykit/examples/llmclient"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/retrytest"
)

// Retryable against permanent statuses, through the client: a 408, a 409,
// a 429 and a 5xx are retried, any other 4xx is returned at once. Both
// sides of each edge.
func TestRetriesOnlyRetryableStatuses(t *testing.T) {
	for _, tc := range []struct {
		status  int
		retried bool
	}{
		{400, false}, {401, false}, {404, false}, {407, false}, {408, true}, {409, true}, {410, false},
		{428, false}, {429, true}, {430, false}, {499, false}, {500, true}, {502, true}, {503, true}, {599, true},
	} {
		t.Run(strconv.Itoa(tc.status), func(t *testing.T) {
			h := newHarness(t, httpscript.Respond(tc.status), answer)
			done := h.classify(t, llmclient.Options{})
			h.clk.Step(time.Minute)
			r := returned(t, h, done)
			if tc.retried {
				retrytest.AssertAttemptsAt(t, h.tr, 0, 500*time.Millisecond)
				gomega.NewWithT(t).Expect(r.out, r.err).To(gomega.Equal("billing"))
				return
			}
			retrytest.AssertAttempts(t, h.tr, 1)
			if ae, ok := errors.AsType[*llmclient.APIError](r.err); !ok || ae.StatusCode != tc.status {
				t.Errorf("Classify returned %v, want the %d as an *APIError", r.err, tc.status)
			}
		})
	}
}

// Complete sends the API key as a bearer token, and the model and the
// prompt as JSON.
func TestCompleteSendsTheKeyTheModelAndThePrompt(t *testing.T) {
	tr := httpscript.NewTransport(t, answer)
	c := &llmclient.Client{HTTP: tr.Client(), URL: apiURL, APIKey: "sk-test", Model: "gpt-test"}
	out, err := c.Complete(t.Context(), "Where do I send my invoice?")
	g := gomega.NewWithT(t)
	g.Expect(out, err).To(gomega.Equal("billing"))
	g.Expect(tr.Requests()).To(gomega.HaveLen(1))
	req := tr.Requests()[0]
	g.Expect(req.Method).To(gomega.Equal("POST"))
	g.Expect(req.Header.Get("Authorization")).To(gomega.Equal("Bearer sk-test"))
	g.Expect(req.Header.Get("Content-Type")).To(gomega.Equal("application/json"))
	var body struct {
		Model    string
		Messages []struct{ Role, Content string }
	}
	g.Expect(json.Unmarshal(req.Body, &body)).To(gomega.Succeed())
	g.Expect(body.Model).To(gomega.Equal("gpt-test"))
	g.Expect(body.Messages).To(gomega.HaveLen(1))
	g.Expect(body.Messages[0].Role).To(gomega.Equal("user"))
	g.Expect(body.Messages[0].Content).To(gomega.Equal("Where do I send my invoice?"))
}

// Only a 2xx is a reply; a 300 with the same body is an *APIError.
func TestCompleteReadsOnlyA2xxAsAReply(t *testing.T) {
	body := `{"choices":[{"message":{"content":"billing"}}]}`
	tr := httpscript.NewTransport(t, httpscript.Respond(299).Body(body), httpscript.Respond(300).Body(body))
	c := &llmclient.Client{HTTP: tr.Client(), URL: apiURL}
	out, err := c.Complete(t.Context(), "Where do I send my invoice?")
	g := gomega.NewWithT(t)
	g.Expect(out, err).To(gomega.Equal("billing"))
	_, err = c.Complete(t.Context(), "Where do I send my invoice?")
	if ae, ok := errors.AsType[*llmclient.APIError](err); !ok || ae.StatusCode != 300 {
		t.Errorf("Complete after a 300 = %v, want the 300 as an *APIError", err)
	}
}
