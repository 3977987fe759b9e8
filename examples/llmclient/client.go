package llmclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// Client calls a chat-completions API in the style of OpenAI's. Its HTTP
// client and its backoff's clock and random source are fields with real
// defaults.
//
// A Client is safe for concurrent use once its fields are set.
type Client struct {
	// HTTP sends the requests; nil means http.DefaultClient.
	HTTP *http.Client
	// URL is the chat-completions endpoint, such as
	// "https://api.openai.com/v1/chat/completions".
	URL string
	// APIKey is sent as a bearer token.
	APIKey string
	// Model names the model.
	Model string
	// Backoff configures the retries of Classify.
	Backoff Options
}

// Classify asks the model for a one-word label of text, such as
// "billing", retrying rate limits and server errors with WithBackoff.
func (c *Client) Classify(ctx context.Context, text string) (string, error) {
	return WithBackoff(ctx, func(ctx context.Context) (string, error) {
		return c.Complete(ctx, "Answer with one word: the department this message is for.\n\n"+text)
	}, c.Backoff)
}

// Complete sends prompt to the model once, without retrying, and returns
// the reply's text. A response whose status is not 2xx is an *APIError.
func (c *Client) Complete(ctx context.Context, prompt string) (string, error) {
	body, err := json.Marshal(map[string]any{
		"model":    c.Model,
		"messages": []map[string]string{{"role": "user", "content": prompt}},
	})
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.APIKey)
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", err
	}
	var reply struct {
		Choices []struct {
			Message struct{ Content string }
		}
		Error struct{ Message string }
	}
	jerr := json.Unmarshal(raw, &reply)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return "", &APIError{StatusCode: resp.StatusCode, Header: resp.Header, Message: reply.Error.Message}
	}
	if jerr != nil {
		return "", fmt.Errorf("llmclient: reading the reply: %w", jerr)
	}
	if len(reply.Choices) == 0 {
		return "", errors.New("llmclient: the reply has no choices")
	}
	return reply.Choices[0].Message.Content, nil
}
